// One pace per site per process, whichever part asks: captions through yt-dlp, audio downloads and listings
// sharing one platform access never start two runs against the same site closer than the interval, while
// another site keeps its own pace. The runs are real child processes; their departures are recorded by the
// runner every run passes through, at the moment each is started.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { YtDlpCaptionSource } from "../../src/captions/ytdlp-source.js";
import { VideoListings } from "../../src/listings/video-listings.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { type ProgramRun, runProgram } from "../../src/platforms/programs.js";
import { siteOf } from "../../src/platforms/sites.js";
import { YtDlpAudioSource } from "../../src/transcription/audio-download.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

// A program that ignores its command line and exits 0 printing nothing: each source then fails its video
// (no info, no audio file, no listing), after exactly one run, which is all the pace counts.
const silentProgram = "/bin/true";
const intervalMs = 120;

describe("The pace shared by every part of a process", () => {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-site-pacing-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("starts no two runs against one site closer than the interval, captions, audio and listings alike", async () => {
    const departures: Array<{ site: string; at: number; args: readonly string[] }> = [];
    const access = new PlatformAccess({
      minIntervalMs: intervalMs,
      runner: (run: ProgramRun) => {
        const url = run.args.at(-1) ?? "";
        departures.push({ site: siteOf(url), at: Date.now(), args: run.args });
        return runProgram(run);
      },
    });
    const captions = new YtDlpCaptionSource({ executable: silentProgram, access });
    const audio = new YtDlpAudioSource({ executable: silentProgram, access });
    const listings = new VideoListings({ ytDlpPath: silentProgram }, access);
    const failed = (promise: Promise<unknown>) =>
      promise.then(
        () => "answered",
        () => "failed",
      );
    const asked: Array<Promise<string>> = [];
    for (let round = 0; round < 3; round++) {
      asked.push(failed(captions.fetchTranscript("Kf7tGz2xQ0A")));
      asked.push(
        failed(
          audio.download("https://www.youtube.com/watch?v=Kf7tGz2xQ0A", "Kf7tGz2xQ0A", folder, undefined),
        ),
      );
      asked.push(failed(listings.list("ws_test", "https://www.youtube.com/@kitchenlab", 5)));
      asked.push(failed(audio.download("https://vimeo.com/76979871", "vimeo:76979871", folder, undefined)));
    }
    expect(await Promise.all(asked)).toEqual(Array(12).fill("failed"));

    const youtube = departures.filter((departure) => departure.site === "youtube");
    const vimeo = departures.filter((departure) => departure.site === "vimeo.com");
    // Every source's runs were counted: three captions runs, three audio downloads, three listings.
    expect(youtube).toHaveLength(9);
    expect(youtube.filter(({ args }) => args.includes("--flat-playlist"))).toHaveLength(3);
    expect(youtube.filter(({ args }) => args.includes("--no-simulate"))).toHaveLength(3);
    expect(youtube.filter(({ args }) => args.includes("--write-pages"))).toHaveLength(3);
    expect(vimeo).toHaveLength(3);
    for (const runs of [youtube, vimeo]) {
      for (let next = 1; next < runs.length; next++) {
        const gap = (runs[next]?.at ?? 0) - (runs[next - 1]?.at ?? 0);
        expect(gap, `run ${next} left ${gap} ms after the one before it`).toBeGreaterThanOrEqual(intervalMs);
      }
    }
  });
});
