// The stored form of a done video's rows: the rows and their sources in one value, and rows stored
// before sources were kept read back with the whole video as their source.
import { describe, expect, it } from "vitest";
import { readStoredRows, storedRowsText } from "../../src/extraction/stored-rows.js";

describe("stored rows", () => {
  it("keeps the rows and their sources in one JSON value, read back as they were", () => {
    const sourced = {
      rows: [
        { product: "kettle", price: 30 },
        { product: "cup", price: null },
      ],
      sources: [
        { startSeconds: 1.5, endSeconds: 4.25, quote: "a kettle for thirty", unverified: [] },
        { startSeconds: 61, endSeconds: 62.001, quote: "and a mug", unverified: ["product"] },
      ],
    };
    const text = storedRowsText(sourced);
    expect(JSON.parse(text)).toEqual({
      results: sourced.rows,
      sources: [
        { start_seconds: 1.5, end_seconds: 4.25, quote: "a kettle for thirty", unverified: [] },
        { start_seconds: 61, end_seconds: 62.001, quote: "and a mug", unverified: ["product"] },
      ],
    });
    expect(readStoredRows(text, 90)).toEqual(sourced);
  });

  it("reads rows stored as a bare list (before sources) with the whole video as each row's source", () => {
    const rows = [{ product: "kettle" }, { product: "cup" }];
    expect(readStoredRows(JSON.stringify(rows), 90)).toEqual({
      rows,
      sources: [
        { startSeconds: 0, endSeconds: 90, quote: "", unverified: ["product"] },
        { startSeconds: 0, endSeconds: 90, quote: "", unverified: ["product"] },
      ],
    });
    expect(readStoredRows("[]", 90)).toEqual({ rows: [], sources: [] });
  });
});
