// Reading VIDROWS_CAPTIONS and VIDROWS_YOUTUBE_PROXY into a captions source, and refusing bad values by name.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaptionSource, parseCaptionsSetting } from "../../src/captions/create-caption-source.js";
import { DirectoryCaptionSource } from "../../src/captions/directory-source.js";
import { UrlTemplateCaptionSource } from "../../src/captions/url-template-source.js";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";

describe("VIDROWS_CAPTIONS", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "vidrows-captions-setting-"));
    writeFileSync(
      join(folder, "aaaaaaaaaaa.srt"),
      "1\n00:00:00,000 --> 00:00:01,000\nhello\n\n2\n00:00:01,000 --> 00:00:30,000\nworld\n",
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is youtube when unset, empty or youtube", () => {
    for (const value of [undefined, "", "  ", "youtube"]) {
      expect(parseCaptionsSetting(value)).toEqual({ kind: "youtube" });
      expect(createCaptionSource(value)).toBeInstanceOf(YouTubeCaptionSource);
    }
  });

  it("reads dir:<path> into a source that serves that folder", async () => {
    const source = createCaptionSource(`dir:${folder}`);
    expect(source).toBeInstanceOf(DirectoryCaptionSource);
    const transcript = await source.fetchTranscript("aaaaaaaaaaa");
    expect(transcript.cues.map((cue) => cue.text)).toEqual(["hello", "world"]);
    expect(transcript.durationSeconds).toBe(30);
  });

  it("reads an http(s) URL template with {video_id}", () => {
    for (const template of [
      "https://captions.example/{video_id}.vtt",
      "http://127.0.0.1:9/c?id={video_id}",
    ]) {
      expect(parseCaptionsSetting(template)).toEqual({ kind: "url", template });
      expect(createCaptionSource(template)).toBeInstanceOf(UrlTemplateCaptionSource);
    }
  });

  it("refuses bad values with a message naming the variable", () => {
    const bad = [
      "YouTube-ish",
      "dir:",
      `dir:${join(folder, "missing")}`,
      `dir:${join(folder, "aaaaaaaaaaa.srt")}`,
      "https://captions.example/no-placeholder.vtt",
      "ftp://captions.example/{video_id}.vtt",
      "https://{video_id}:x/",
      "/just/a/path",
    ];
    for (const value of bad) {
      expect(() => createCaptionSource(value), value).toThrow(/VIDROWS_CAPTIONS/);
    }
  });

  it("refuses a VIDROWS_YOUTUBE_PROXY that is not an http(s) URL, by name", () => {
    for (const proxy of ["socks5://127.0.0.1:1080", "not a url", "127.0.0.1:3128"]) {
      expect(() => createCaptionSource("youtube", { youtubeProxy: proxy }), proxy).toThrow(
        /VIDROWS_YOUTUBE_PROXY/,
      );
    }
    expect(
      createCaptionSource("youtube", { youtubeProxy: "http://user:pass@127.0.0.1:3128" }),
    ).toBeInstanceOf(YouTubeCaptionSource);
  });
});
