// A done video's stored rows as the handover gives them: each source with its link, within the video's
// length as the read reports it, its quote and unverified columns, and rows from before sources with the
// whole video.
import { describe, expect, it } from "vitest";
import { storedRowsText } from "../../src/extraction/stored-rows.js";
import { handedOverRows } from "../../src/jobs/views.js";

const videoId = "aqz-KE-bpKQ";
const at = (seconds: number) => `https://www.youtube.com/watch?v=${videoId}&t=${seconds}s`;

describe("handed-over rows", () => {
  it("gives each row its source with a link at its start, rounded down to whole seconds", () => {
    const stored = storedRowsText({
      rows: [{ product: "kettle" }, { product: "cup" }],
      sources: [
        { startSeconds: 1.999, endSeconds: 4.5, quote: "a kettle", unverified: [] },
        { startSeconds: 61, endSeconds: 62.25, quote: "a mug", unverified: ["product"] },
      ],
    });
    expect(handedOverRows(stored, videoId, 90)).toEqual({
      results: [{ product: "kettle" }, { product: "cup" }],
      sources: [
        { start_seconds: 1.999, end_seconds: 4.5, url: at(1), quote: "a kettle", unverified: [] },
        { start_seconds: 61, end_seconds: 62.25, url: at(61), quote: "a mug", unverified: ["product"] },
      ],
    });
  });

  it("keeps a source at its moment when the charged length (the words' span from the first) ends before it", () => {
    // Speech from 12 s to 102 s: 90 s charged, and the last row's moment is still at 100 s.
    const stored = storedRowsText({
      rows: [{ product: "kettle" }],
      sources: [{ startSeconds: 100, endSeconds: 102, quote: "kettle", unverified: [] }],
    });
    expect(handedOverRows(stored, videoId, 90).sources).toMatchObject([
      { start_seconds: 100, end_seconds: 102, url: at(100) },
    ]);
  });

  it("gives rows stored before sources the whole video, with a link at its beginning", () => {
    const stored = JSON.stringify([{ product: "kettle" }]);
    expect(handedOverRows(stored, videoId, 90)).toEqual({
      results: [{ product: "kettle" }],
      sources: [{ start_seconds: 0, end_seconds: 90, url: at(0), quote: "", unverified: ["product"] }],
    });
  });

  it("gives rows stored before quotes an empty quote that holds none of their values", () => {
    const stored = JSON.stringify({
      results: [{ product: "kettle", price: 4, in_stock: true, note: null }],
      sources: [{ start_seconds: 3, end_seconds: 9 }],
    });
    expect(handedOverRows(stored, videoId, 90).sources).toEqual([
      { start_seconds: 3, end_seconds: 9, url: at(3), quote: "", unverified: ["product", "price"] },
    ]);
  });
});
