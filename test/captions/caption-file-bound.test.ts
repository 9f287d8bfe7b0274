// A caption file yt-dlp wrote is read only within its bound: past it the video fails video_unavailable,
// the file unread (4 MB of cues would otherwise cost memory and model requests a one-credit video never pays).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { maxCaptionFileBytes, writtenSubtitle } from "../../src/captions/ytdlp-subtitle-run.js";
import { PlatformError } from "../../src/platforms/platform-error.js";

const folder = mkdtempSync(join(tmpdir(), "vidrows-caption-bound-"));
const track = {
  key: "en",
  url: "https://pages.example.org/en.vtt",
  format: "vtt" as const,
  languageCode: "en",
};
const cues = `WEBVTT\n\n${"00:00:01.000 --> 00:00:02.000\nA line of words.\n\n".repeat(100)}`;
writeFileSync(join(folder, "subtitle.en.vtt"), cues);

describe("a caption file yt-dlp wrote", () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is read whole within its bound", async () => {
    expect(await writtenSubtitle(folder, track, cues.length)).toBe(cues);
  });

  it("fails the video video_unavailable past its bound, naming it, without reading it", async () => {
    const failure = await writtenSubtitle(folder, track, cues.length - 1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformError);
    expect(failure).toMatchObject({ code: "video_unavailable", retryable: false });
    expect((failure as Error).message).toContain("larger than");
  });

  it("is bounded at 16 MB unless told otherwise", () => {
    expect(maxCaptionFileBytes).toBe(16_000_000);
  });
});
