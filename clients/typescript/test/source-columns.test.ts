// `jobs rows --sources`: the source's columns never take a name a schema column (or video_id) has.
import { describe, expect, it } from "vitest";
import { sourceColumnNames, withSourceColumns } from "../src/cli/source-columns.js";

const source = {
  start_seconds: 61.5,
  url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ&t=61s",
  quote: "a kettle",
};

describe("source columns", () => {
  it("adds the start, URL and quote after the row's columns", () => {
    const table = withSourceColumns({
      columns: ["product"],
      rows: [{ videoId: "aqz-KE-bpKQ", cells: { product: "kettle" }, source }],
    });
    expect(table.columns).toEqual(["product", "source_start_seconds", "source_url", "source_quote"]);
    expect(table.rows[0]?.cells).toEqual({
      product: "kettle",
      source_start_seconds: 61.5,
      source_url: source.url,
      source_quote: "a kettle",
    });
  });

  it("leads a name with underscores until it differs from every column", () => {
    const columns = ["source_url", "_source_url", "source_quote"];
    expect(sourceColumnNames(columns)).toEqual(["source_start_seconds", "__source_url", "_source_quote"]);
    const table = withSourceColumns({ columns, rows: [{ videoId: "a", cells: { source_url: "mine" } }] });
    expect(table.rows[0]?.cells.source_url).toBe("mine");
    expect(table.rows[0]?.cells.__source_url).toBeNull();
  });

  it("names the source's columns in the header of a table without rows", () => {
    expect(withSourceColumns({ columns: ["product"], rows: [] }).columns).toEqual([
      "product",
      "source_start_seconds",
      "source_url",
      "source_quote",
    ]);
  });
});
