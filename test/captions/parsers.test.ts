// Caption formats read into cues: WebVTT (with YouTube's rolling automatic captions), SubRip and json3.
import { describe, expect, it } from "vitest";
import { CaptionFormatError } from "../../src/captions/caption-format-error.js";
import { formatFromContentType, parseCaptions, sniffFormat } from "../../src/captions/caption-formats.js";
import { cleanCueText, decodeEntities, transcriptText } from "../../src/captions/caption-text.js";
import { parseJson3 } from "../../src/captions/json3.js";
import { parseSrt, parseWebVtt } from "../../src/captions/timed-text.js";
import { captionFixture } from "../support/captions.js";

describe("YouTube's rolling automatic WebVTT", () => {
  const cues = parseWebVtt(captionFixture("rolling-auto.en.vtt"));
  const spoken = [
    "hey everyone welcome back to the kitchen",
    "today we're making a simple tomato sauce",
    "you'll need two cans of tomatoes & garlic",
    // "[Music]" between these: a sound, which no one said, is left out.
    "first heat the olive oil over medium heat",
    "then add the garlic and stir for a minute",
    "then add the garlic and stir again",
  ];

  it("carries each spoken line once, in order", () => {
    expect(cues.map((cue) => cue.text)).toEqual(spoken);
    expect(transcriptText(cues)).toBe(spoken.join(" "));
  });

  it("keeps no karaoke timing tags, <c> tags or entities", () => {
    for (const cue of cues) expect(cue.text).not.toMatch(/<|>|&amp;/);
  });

  it("times each line from the cue that brought it until the next line comes", () => {
    expect(cues[0]).toEqual({ startMs: 160, endMs: 2879, text: spoken[0] });
    expect(cues[1]).toEqual({ startMs: 2879, endMs: 5759, text: spoken[1] });
    // The last cue only repeats a line; the captions still end where it ends.
    expect(cues.at(-1)).toEqual({ startMs: 17_039, endMs: 22_480, text: spoken[5] });
  });
});

describe("WebVTT written by a person", () => {
  const cues = parseWebVtt(captionFixture("manual.en.vtt"));

  it("reads every cue past STYLE and NOTE blocks and named cue identifiers", () => {
    expect(cues.map((cue) => cue.text)).toEqual([
      "Welcome to the kitchen!",
      `Tom & Jerry's "famous" sauce\n<not a tag> and 1 < 2`,
      "No.",
      "No.",
      "That's all for today.",
    ]);
  });

  it("keeps a line really said twice in a row, and the timings", () => {
    expect(cues[2]).toEqual({ startMs: 6000, endMs: 7000, text: "No." });
    expect(cues[3]).toEqual({ startMs: 7000, endMs: 8250, text: "No." });
    expect(cues[4]).toEqual({ startMs: 62_500, endMs: 65_000, text: "That's all for today." });
  });
});

describe("SubRip", () => {
  it("reads CRLF files with indexes, HTML tags, ASS overrides, entities and hours", () => {
    const cues = parseSrt(captionFixture("manual.en.srt"));
    expect(cues).toEqual([
      { startMs: 500, endMs: 2000, text: "Hello there." },
      { startMs: 2000, endMs: 4250, text: "General Kenobi!\nYou are a bold one." },
      { startMs: 4250, endMs: 5000, text: "Kill him!" },
      { startMs: 3_600_000, endMs: 3_601_500, text: "Back away & wait." },
    ]);
  });

  it("gives no cues for text that is not captions", () => {
    expect(parseSrt("<html><body>Service unavailable</body></html>")).toEqual([]);
    expect(parseSrt("")).toEqual([]);
  });
});

describe("json3", () => {
  it("reads events with words and skips window definitions, line breaks, blank segments and sound labels", () => {
    const cues = parseJson3(captionFixture("auto.en.json3"));
    // Each line ends where the next begins: automatic events last into the next one.
    expect(cues).toEqual([
      { startMs: 160, endMs: 2879, text: "hey everyone welcome back to the kitchen" },
      { startMs: 2879, endMs: 8549, text: "today we're making a simple tomato sauce" },
      { startMs: 11_280, endMs: 14_150, text: "tomatoes & garlic" },
    ]);
  });

  it("keeps the end of a line that does not run into the next one", () => {
    const text = JSON.stringify({
      events: [
        { tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: "one" }] },
        { tStartMs: 3000, dDurationMs: 9600, segs: [{ utf8: "two" }] },
        { tStartMs: 4000, dDurationMs: 500, segs: [{ utf8: "three" }] },
      ],
    });
    expect(parseJson3(text)).toEqual([
      { startMs: 0, endMs: 1000, text: "one" },
      { startMs: 3000, endMs: 4000, text: "two" },
      { startMs: 4000, endMs: 4500, text: "three" },
    ]);
  });

  it("refuses text that is not json3", () => {
    expect(() => parseJson3("<html>captcha</html>")).toThrow(CaptionFormatError);
    expect(() => parseJson3('{"wireMagic": "pb3"}')).toThrow(CaptionFormatError);
  });
});

describe("caption text", () => {
  it("strips markup and decodes entities once", () => {
    expect(cleanCueText("<b>bold</b> <00:00:01.000><c>word</c> {\\an8}up")).toBe("bold word up");
    expect(decodeEntities("&amp;lt; &#39;&#x41;&quot; a&nbsp;b &unknown;")).toBe(`&lt; 'A" a b &unknown;`);
  });

  it("drops blank lines and collapses spaces", () => {
    expect(cleanCueText(" \n  two   words \n\t\n")).toBe("two words");
  });

  it("drops lines that only name a sound, and keeps words said beside one", () => {
    for (const label of ["[Music]", "[Applause]", "(laughs)", "♪ ♪", "♪"]) {
      expect(cleanCueText(label), label).toBe("");
    }
    expect(cleanCueText("[Music]\nhello there")).toBe("hello there");
    expect(cleanCueText("♪ la la la ♪")).toBe("♪ la la la ♪");
  });
});

describe("format detection", () => {
  it("goes by the content type when it names a format", () => {
    expect(formatFromContentType("text/vtt; charset=utf-8")).toBe("vtt");
    expect(formatFromContentType("application/x-subrip")).toBe("srt");
    expect(formatFromContentType("application/json")).toBe("json3");
    expect(formatFromContentType("text/plain")).toBeNull();
  });

  it("else by the content", () => {
    expect(sniffFormat("\uFEFFWEBVTT\n\n")).toBe("vtt");
    expect(sniffFormat('  {"events": []}')).toBe("json3");
    expect(sniffFormat("1\n00:00:01,000 --> 00:00:02,000\nhi\n")).toBe("srt");
    expect(parseCaptions(captionFixture("auto.en.json3"), "json3")).toHaveLength(3);
  });
});
