// The one CSV writer's rules on their own (RFC 4180 quoting, formulas neutralised, plain numbers kept);
// the CLI's test and the dashboard's browser test cover them through the command and the download.
import { describe, expect, it } from "vitest";
import { rowsToCsv } from "../src/cli/csv.js";
import { csvField, csvText, neutraliseFormula } from "../src/csv.js";
import * as client from "../src/index.js";

describe("CSV", () => {
  it("quotes exactly the fields that need it", () => {
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("carriage\rreturn")).toBe('"carriage\rreturn"');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(0)).toBe("0");
    expect(csvField(false)).toBe("false");
  });

  it("prefixes ' to every cell that would start a formula", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField("=1+2")).toBe("'=1+2");
    expect(csvField("+1+2")).toBe("'+1+2");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1")).toBe("'\t=1");
    // A carriage return also needs quotes; the ' goes inside them.
    expect(csvField("\r=1")).toBe('"\'\r=1"');
    expect(csvField("-")).toBe("'-");
  });

  it("leaves plain numbers, negative ones included, as numbers", () => {
    for (const number of [-12, -3.5, 0, 42, -1e21, 1e-7, -0.25])
      expect(csvField(number)).toBe(String(number));
    for (const text of ["-12", "-3.5", "-0", "12", "1e5", "-1E5", "-2.5e-3", "-1e+21"])
      expect(csvField(text)).toBe(text);
    // Texts that only look like numbers to a lenient reader are not plain numbers.
    for (const text of ["+12", "--1", "-.5", "-1.", "-012", "-Infinity", "-NaN", "-1 ", "-1e", "-0x1F"])
      expect(neutraliseFormula(text)).toBe(`'${text}`);
  });

  it("leaves other cells alone, formula characters after the first included", () => {
    for (const text of ["a=b", "1+1", "x@y.com", " =1", "", "'quoted", "1e5"])
      expect(neutraliseFormula(text)).toBe(text);
  });

  it("neutralises the header line too", () => {
    expect(csvText(["video_id", "=cmd"], [["aaaaaaaaaaa", "-5"]])).toBe(
      "video_id,'=cmd\r\naaaaaaaaaaa,-5\r\n",
    );
  });

  it("is the package's export, the one the dashboard uses", () => {
    expect(client.csvText).toBe(csvText);
    expect(client.csvField).toBe(csvField);
  });

  it("writes video_id then the table's columns, with CRLF line ends, and the header alone without rows", () => {
    const columns = ["name", "price"];
    const csv = rowsToCsv({
      columns,
      rows: [
        { videoId: "aaaaaaaaaaa", cells: { name: "x", price: 1 } },
        { videoId: "bbbbbbbbbbb", cells: { name: "y, z", price: null } },
        { videoId: "-ccccccccc_", cells: { name: "=x", price: -2 } },
      ],
    });
    expect(csv).toBe(
      "video_id,name,price\r\naaaaaaaaaaa,x,1\r\nbbbbbbbbbbb,\"y, z\",\r\n'-ccccccccc_,'=x,-2\r\n",
    );
    expect(rowsToCsv({ columns, rows: [] })).toBe("video_id,name,price\r\n");
  });
});
