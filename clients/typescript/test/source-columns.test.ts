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
    const [row] = withSourceColumns([{ videoId: "aqz-KE-bpKQ", cells: { product: "kettle" }, source }]);
    expect(row?.cells).toEqual({
      product: "kettle",
      source_start_seconds: 61.5,
      source_url: source.url,
      source_quote: "a kettle",
    });
  });

  it("leads a name with underscores until it differs from every column, in any row", () => {
    const rows = [
      { videoId: "a", cells: { source_url: "mine", _source_url: "mine too" } },
      { videoId: "b", cells: { source_quote: "also mine" } },
    ];
    expect(sourceColumnNames(rows)).toEqual(["source_start_seconds", "__source_url", "_source_quote"]);
    const [first] = withSourceColumns(rows);
    expect(first?.cells.source_url).toBe("mine");
    expect(first?.cells.__source_url).toBeNull();
  });
});
