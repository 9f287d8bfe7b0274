// The CSV writer's quoting rules (RFC 4180) on their own; the real-server test covers the whole command.
import { describe, expect, it } from "vitest";
import { csvField, rowsToCsv } from "../src/cli/csv.js";

describe("CSV", () => {
  it("quotes exactly the fields that need it", () => {
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("carriage\rreturn")).toBe('"carriage\rreturn"');
    expect(csvField(null)).toBe("");
    expect(csvField(0)).toBe("0");
    expect(csvField(false)).toBe("false");
  });

  it("writes video_id then the columns in the rows' order, with CRLF line ends", () => {
    const csv = rowsToCsv([
      { videoId: "aaaaaaaaaaa", cells: { name: "x", price: 1 } },
      { videoId: "bbbbbbbbbbb", cells: { name: "y, z", price: null } },
    ]);
    expect(csv).toBe('video_id,name,price\r\naaaaaaaaaaa,x,1\r\nbbbbbbbbbbb,"y, z",\r\n');
    expect(rowsToCsv([])).toBe("video_id\r\n");
  });
});
