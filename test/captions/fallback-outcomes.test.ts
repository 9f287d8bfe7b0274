// The chain youtube,yt-dlp over every pair of outcomes its two sources can have, against a table written
// out by hand: a transcript wins, knowledge about the video ends the chain, and a later source's answer
// never overrides what an earlier one knew (caption tracks it saw but was kept from reading).
import { describe, expect, it } from "vitest";
import { type CaptionSource } from "../../src/captions/caption-source.js";
import { PlatformError, type PlatformErrorCode } from "../../src/platforms/platform-error.js";
import { type Transcript } from "../../src/domain/transcript.js";
import { FallbackCaptionSource } from "../../src/captions/fallback-source.js";

type Outcome = "transcript" | "no_captions" | "video_unavailable" | "refused" | "refused_saw_tracks";

interface Scripted extends CaptionSource {
  calls: number;
}

function scripted(name: string, outcome: Outcome): Scripted {
  const source: Scripted = {
    calls: 0,
    async fetchTranscript(): Promise<Transcript> {
      source.calls += 1;
      if (outcome === "transcript") {
        return { cues: [{ startMs: 0, endMs: 1000, text: `from ${name}` }], durationSeconds: 1 };
      }
      if (outcome === "refused") throw new PlatformError("captions_unavailable", `${name} refused`);
      if (outcome === "refused_saw_tracks") {
        throw new PlatformError("captions_unavailable", `${name} saw tracks`, { sawCaptionTracks: true });
      }
      throw new PlatformError(outcome, `${name} says ${outcome}`);
    },
  };
  return source;
}

type Result = "from youtube" | "from yt-dlp" | PlatformErrorCode;

// [youtube's outcome, yt-dlp's outcome, the chain's result, whether yt-dlp is asked]
const table: Array<[Outcome, Outcome, Result, boolean]> = [
  ["transcript", "transcript", "from youtube", false],
  ["transcript", "no_captions", "from youtube", false],
  ["transcript", "video_unavailable", "from youtube", false],
  ["transcript", "refused", "from youtube", false],
  ["transcript", "refused_saw_tracks", "from youtube", false],
  ["no_captions", "transcript", "no_captions", false],
  ["no_captions", "no_captions", "no_captions", false],
  ["no_captions", "video_unavailable", "no_captions", false],
  ["no_captions", "refused", "no_captions", false],
  ["no_captions", "refused_saw_tracks", "no_captions", false],
  ["video_unavailable", "transcript", "video_unavailable", false],
  ["video_unavailable", "no_captions", "video_unavailable", false],
  ["video_unavailable", "video_unavailable", "video_unavailable", false],
  ["video_unavailable", "refused", "video_unavailable", false],
  ["video_unavailable", "refused_saw_tracks", "video_unavailable", false],
  ["refused", "transcript", "from yt-dlp", true],
  ["refused", "no_captions", "no_captions", true],
  ["refused", "video_unavailable", "video_unavailable", true],
  ["refused", "refused", "captions_unavailable", true],
  ["refused", "refused_saw_tracks", "captions_unavailable", true],
  ["refused_saw_tracks", "transcript", "from yt-dlp", true],
  // youtube saw the tracks: yt-dlp finding none, or calling the video unavailable, is contradicted.
  ["refused_saw_tracks", "no_captions", "captions_unavailable", true],
  ["refused_saw_tracks", "video_unavailable", "captions_unavailable", true],
  ["refused_saw_tracks", "refused", "captions_unavailable", true],
  ["refused_saw_tracks", "refused_saw_tracks", "captions_unavailable", true],
];

describe("The chain youtube,yt-dlp over every pair of outcomes", () => {
  it("covers every pair once", () => {
    expect(new Set(table.map(([first, second]) => `${first}/${second}`)).size).toBe(25);
  });

  for (const [first, second, expected, secondAsked] of table) {
    it(`youtube ${first}, yt-dlp ${second}: ${expected}`, async () => {
      const youtube = scripted("youtube", first);
      const ytDlp = scripted("yt-dlp", second);
      const chain = new FallbackCaptionSource([
        { name: "youtube", source: youtube },
        { name: "yt-dlp", source: ytDlp },
      ]);
      const outcome = await chain.fetchTranscript("Kf7tGz2xQ0A").then(
        (transcript) => transcript.cues[0]?.text,
        (error: unknown) => error,
      );
      if (expected === "from youtube" || expected === "from yt-dlp") {
        expect(outcome).toBe(expected);
      } else {
        expect(outcome).toBeInstanceOf(PlatformError);
        const error = outcome as PlatformError;
        expect(error.code).toBe(expected);
        expect(error.retryable).toBe(expected === "captions_unavailable");
      }
      expect(ytDlp.calls).toBe(secondAsked ? 1 : 0);
    });
  }
});
