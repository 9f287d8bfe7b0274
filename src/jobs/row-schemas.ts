// The rows a done video hands over, and where each came from: the schemas of `rows` in a job's read.
import { type Static, Type } from "typebox";
import { refTo } from "../http/common-schemas.js";

const Cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const RowSource = Type.Object(
  {
    start_seconds: Type.Number({
      minimum: 0,
      description:
        "Where the transcript span the row was drawn from starts, in seconds from the video's start (to the millisecond).",
    }),
    end_seconds: Type.Number({
      minimum: 0,
      description:
        "Where that span ends, in seconds; never before `start_seconds`, never past the video's end (`usage.duration_seconds`).",
    }),
    url: Type.String({
      description:
        "Opens the video at the span's start, `<start>` being `start_seconds` rounded down to whole seconds: `https://www.youtube.com/watch?v=<video_id>&t=<start>s` on YouTube, the page with `#t=<start>s` on Vimeo, with `?start=<start>` on Dailymotion, a media file with `#t=<start>`; the plain page on platforms that cannot open a moment (TikTok, Instagram, X, Facebook and others).",
    }),
    quote: Type.String({
      description:
        "The transcript text of the lines the row was drawn from, as the model saw it (caption lines joined by single spaces). Empty for rows settled before quotes were kept.",
    }),
    unverified: Type.Array(Type.String(), {
      description:
        "The row's columns, in the schema's order, whose string or number value `quote` does not contain: a value the model may have written without the transcript saying it. Case, accents, whitespace and punctuation do not count; numbers match by value however written (`$1,200.00`, `1200`, `twelve hundred`; `twelve`, `twenty-five`, `1.5 million`; sign aside). Booleans and values of enum columns are never checked. Rows settled before quotes were kept name every string or number column.",
    }),
  },
  {
    $id: "RowSource",
    description:
      "Where a row came from, and the evidence: the caption lines the model named for it, checked against the transcript part it was read in (a span outside that part is clamped to it; a row the model gave no usable span for gets the whole part; a span wider than 90 seconds is narrowed to the one line, or two adjacent lines, whose text holds the most of the row's values). Rows settled before sources were kept get the whole video (0 to its `duration_seconds`).",
  },
);
export type RowSource = Static<typeof RowSource>;

export const VideoRows = Type.Object(
  {
    results: Type.Array(Type.Record(Type.String(), Cell), {
      description: "The rows: each object's keys are exactly the schema's columns.",
    }),
    sources: Type.Array(refTo(RowSource), {
      description: "As long as `results`: `sources[i]` says where `results[i]` came from.",
    }),
  },
  {
    $id: "VideoRows",
    description: "A done video's rows and where each came from, handed over once and then deleted with them.",
  },
);
export type VideoRows = Static<typeof VideoRows>;
