// Merging the rows of a transcript's chunks: chunk order, with exact repeats from the overlaps dropped.
import { describe, expect, it } from "vitest";
import type { Row } from "../../src/extraction/extractor.js";
import { mergeChunkRows } from "../../src/extraction/row-merging.js";

const columns = ["product", "price"];

describe("merging chunk rows", () => {
  it("keeps chunk order and drops rows equal in every column, keeping the first", () => {
    const merged = mergeChunkRows(
      [
        [
          { product: "apple", price: 3 },
          { product: "pear", price: 2 },
        ],
        [
          { product: "pear", price: 2 },
          { product: "plum", price: 1 },
        ],
        [{ product: "apple", price: 3 }],
      ],
      columns,
    );
    expect(merged).toEqual([
      { product: "apple", price: 3 },
      { product: "pear", price: 2 },
      { product: "plum", price: 1 },
    ]);
  });

  it("keeps rows that differ in any column, or only in a value's type", () => {
    const rows: Row[][] = [
      [{ product: "apple", price: 3 }],
      [
        { product: "apple", price: "3" },
        { product: "apple", price: null },
        { product: "Apple", price: 3 },
      ],
    ];
    expect(mergeChunkRows(rows, columns)).toHaveLength(4);
  });

  it("gives nothing for no chunks", () => {
    expect(mergeChunkRows([], columns)).toEqual([]);
    expect(mergeChunkRows([[], []], columns)).toEqual([]);
  });
});
