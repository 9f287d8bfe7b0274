// Merging the rows of a transcript's chunks: chunk order, with exact repeats from the overlaps dropped,
// and each kept row with one source, its own.
import { describe, expect, it } from "vitest";
import type { Row, RowSource, SourcedRows } from "../../src/extraction/extractor.js";
import { mergeChunkRows } from "../../src/extraction/row-merging.js";

const columns = ["product", "price"];

/** A chunk's rows, each with a source of its own that names it: `[start, end]` seconds. */
function chunk(...items: [Row, number, number][]): SourcedRows {
  return {
    rows: items.map(([row]) => row),
    sources: items.map(([, startSeconds, endSeconds]): RowSource => ({
      startSeconds,
      endSeconds,
      quote: "",
      unverified: [],
    })),
  };
}

describe("merging chunk rows", () => {
  it("keeps chunk order and drops rows equal in every column, keeping the first with its source", () => {
    const merged = mergeChunkRows(
      [
        chunk([{ product: "apple", price: 3 }, 0, 4], [{ product: "pear", price: 2 }, 20, 24]),
        chunk([{ product: "pear", price: 2 }, 21, 25], [{ product: "plum", price: 1 }, 30, 34]),
        chunk([{ product: "apple", price: 3 }, 50, 54]),
      ],
      columns,
    );
    expect(merged).toMatchObject({
      rows: [
        { product: "apple", price: 3 },
        { product: "pear", price: 2 },
        { product: "plum", price: 1 },
      ],
      sources: [
        { startSeconds: 0, endSeconds: 4 },
        { startSeconds: 20, endSeconds: 24 },
        { startSeconds: 30, endSeconds: 34 },
      ],
    });
  });

  it("keeps rows that differ in any column, or only in a value's type, each with its own source", () => {
    const merged = mergeChunkRows(
      [
        chunk([{ product: "apple", price: 3 }, 1, 2]),
        chunk(
          [{ product: "apple", price: "3" }, 3, 4],
          [{ product: "apple", price: null }, 5, 6],
          [{ product: "Apple", price: 3 }, 7, 8],
        ),
      ],
      columns,
    );
    expect(merged.rows).toHaveLength(4);
    expect(merged.sources.map((source) => source.startSeconds)).toEqual([1, 3, 5, 7]);
  });

  it("gives nothing for no chunks", () => {
    expect(mergeChunkRows([], columns)).toEqual({ rows: [], sources: [] });
    expect(mergeChunkRows([chunk(), chunk()], columns)).toEqual({ rows: [], sources: [] });
  });
});
