// The yt-dlp captions source against a fake yt-dlp printing recorded-shape output, with the caption tracks
// served by a local server: found, not found, no subtitles, video unavailable, blocked, hung (killed).
import { guardProxy, recordExits } from "../support/egress-exits.js";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { YtDlpCaptionSource } from "../../src/captions/ytdlp-source.js";
import { createFakeYtDlp, type FakeYtDlp, processIsGone } from "./fake-ytdlp.js";
import { type LocalServer, type SeenRequest, startLocalServer } from "./local-servers.js";
import { captionFailure, captionFixture, json3Track } from "../support/captions.js";

const videoId = "Kf7tGz2xQ0A";
/** The tracks as YouTube's timedtext endpoint serves them with fmt=json3. */
function serveTrack(request: SeenRequest): string {
  if (request.url.searchParams.get("kind") === "asr") return captionFixture("auto.en.json3");
  if (request.url.searchParams.get("lang") === "de") return json3Track("willkommen in der Küche");
  return json3Track("welcome to the kitchen", "today a tomato sauce");
}

describe("Captions through yt-dlp", () => {
  let platform: LocalServer;
  let ytDlp: FakeYtDlp;
  let source: YtDlpCaptionSource;
  /** A recorded info document, its caption URLs pointed at the local server. */
  const info = (name: string) =>
    captionFixture(`yt-dlp/${name}`).replaceAll("https://www.youtube.com", platform.origin);
  const trackRequests = () => platform.requests.filter((r) => r.url.pathname === "/api/timedtext");

  beforeAll(async () => {
    platform = await startLocalServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json; charset=UTF-8" }).end(serveTrack(request));
    });
    ytDlp = createFakeYtDlp();
    source = new YtDlpCaptionSource({ executable: ytDlp.path, timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await source.close();
    await platform.close();
    ytDlp.remove();
  });
  beforeEach(() => {
    platform.requests.length = 0;
    ytDlp.script({ "*": { stdout: info("info-ok.json") } });
  });

  describe("found", () => {
    it("asks yt-dlp for the video's info, never media, then has it write the manual track of its language", async () => {
      const before = ytDlp.calls().length;
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.cues.map((cue) => cue.text)).toEqual([
        "welcome to the kitchen",
        "today a tomato sauce",
      ]);
      expect(transcript.cues[1]).toEqual({ startMs: 2000, endMs: 4000, text: "today a tomato sauce" });
      expect(transcript.language).toBe("en");
      expect(transcript.durationSeconds).toBe(212);

      const calls = ytDlp.calls().slice(before);
      expect(calls).toHaveLength(2);
      const [infoRun = [], subtitleRun = []] = calls;
      expect(infoRun).toContain("--skip-download");
      expect(infoRun).toContain("--dump-single-json");
      // No operator proxy: only the egress guard's own, in the environment (never --proxy, see childEnvironment).
      expect(infoRun).not.toContain("--proxy");
      for (const proxy of ytDlp.proxies().slice(before)) expect(proxy).toMatch(guardProxy);
      expect(infoRun.slice(-2)).toEqual(["--", `https://www.youtube.com/watch?v=${videoId}`]);
      const media = /^(-f|--format|-x|--extract-audio|--no-simulate)$/;
      expect(infoRun.some((arg) => media.test(arg))).toBe(false);
      // The second run loads the first one's info (YouTube is not asked for the video again) and writes
      // exactly the chosen track: the written English one, as json3, and nothing else.
      expect(subtitleRun).toContain("--load-info-json");
      expect(subtitleRun).toContain("--skip-download");
      expect(subtitleRun).toContain("--write-subs");
      expect(subtitleRun).not.toContain("--write-auto-subs");
      expect(subtitleRun[subtitleRun.indexOf("--sub-langs") + 1]).toBe("en");
      expect(subtitleRun[subtitleRun.indexOf("--sub-format") + 1]).toBe("json3");
      expect(subtitleRun.some((arg) => media.test(arg))).toBe(false);
      const [track] = trackRequests();
      expect(track?.url.searchParams.get("fmt")).toBe("json3");
      expect(track?.url.searchParams.get("lang")).toBe("en");
      expect(track?.url.searchParams.get("kind")).toBeNull();
    });

    it("has yt-dlp write an automatic track with --write-auto-subs only, its key taken literally", async () => {
      ytDlp.script({ "*": { stdout: info("info-auto-only.json") } });
      const before = ytDlp.calls().length;
      await source.fetchTranscript(videoId);
      const subtitleRun = ytDlp.calls()[before + 1] ?? [];
      expect(subtitleRun).toContain("--write-auto-subs");
      expect(subtitleRun).not.toContain("--write-subs");
      expect(subtitleRun[subtitleRun.indexOf("--sub-langs") + 1]).toBe("en-orig");
    });

    it("maps a caption download that yt-dlp could not make (HTTP 429) to captions_unavailable", async () => {
      ytDlp.script({
        "*": {
          stdout: info("info-ok.json"),
          subtitleRun: {
            stderr: "ERROR: Unable to download video subtitles for 'en': HTTP Error 429: Too Many Requests\n",
            exitCode: 1,
          },
        },
      });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/429/);
    });

    it("reads the asked language, and never a machine translation", async () => {
      const german = await source.fetchTranscript(videoId, { language: "de-DE" });
      expect(german.cues[0]?.text).toBe("willkommen in der Küche");
      expect(german.language).toBe("de");

      // yt-dlp lists a French translation of the automatic track; that is not what was said.
      const error = await captionFailure(source.fetchTranscript(videoId, { language: "fr" }));
      expect(error.code).toBe("no_captions");
      expect(error.message).toMatch(/"fr".*en, de|"fr".*de, en/);
      expect(trackRequests().every((r) => !r.url.searchParams.has("tlang"))).toBe(true);
    });

    it("takes the video's language from its original audio track, not from a mislabelled automatic track", async () => {
      ytDlp.script({ "*": { stdout: info("info-manual-en-auto-ja.json") } });
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.language).toBe("en");
      expect(transcript.cues[0]?.text).toBe("welcome to the kitchen");
      expect(trackRequests()[0]?.url.searchParams.get("kind")).toBeNull();
    });

    it("takes the language of a video with one audio track from the player answers yt-dlp saved", async () => {
      // yt-dlp's info labels the only audio track with the automatic track's (wrong) language, "ja".
      const pages = {
        "Kf7tGz2xQ0A_https_-_www.youtube.com_youtubei_v1_player_prettyPrint=false_7b1c.dump": captionFixture(
          "youtube/player-manual-en-auto-ja.json",
        ),
      };
      ytDlp.script({ "*": { stdout: info("info-manual-en-auto-ja-one-audio.json"), pages } });
      const before = ytDlp.calls().length;
      const transcript = await source.fetchTranscript(videoId);
      expect(ytDlp.calls()[before]).toContain("--write-pages");
      expect(transcript.language).toBe("en");
      expect(transcript.cues[0]?.text).toBe("welcome to the kitchen");

      // Without them, the automatic track's label is all there is to go by.
      ytDlp.script({ "*": { stdout: info("info-manual-en-auto-ja-one-audio.json") } });
      expect((await source.fetchTranscript(videoId)).language).toBe("ja");
    });

    it("reads the automatic track in the spoken language when no one wrote captions", async () => {
      ytDlp.script({ "*": { stdout: info("info-auto-only.json") } });
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.cues[0]).toEqual({
        startMs: 160,
        endMs: 2879,
        text: "hey everyone welcome back to the kitchen",
      });
      expect(transcript.language).toBe("en");
      // No length in the info: the captions' end stands in, as with the youtube source.
      expect(transcript.durationSeconds).toBe(14.15);
      expect(trackRequests()[0]?.url.searchParams.get("kind")).toBe("asr");
    });

    it("sends both runs of an attempt through one proxy, the next attempt through the next one", async () => {
      const access = new PlatformAccess({ proxies: ["http://127.0.0.1:3128", "socks5://127.0.0.1:1080"] });
      const exits = recordExits(access);
      const pooled = new YtDlpCaptionSource({ executable: ytDlp.path, access });
      const before = ytDlp.calls().length;
      await pooled.fetchTranscript(videoId);
      await pooled.fetchTranscript(videoId);
      for (const args of ytDlp.calls().slice(before)) expect(args).not.toContain("--proxy");
      const handed = ytDlp.proxies().slice(before);
      expect(handed).toHaveLength(4);
      for (const proxy of handed) expect(proxy).toMatch(guardProxy);
      expect(exits).toEqual([
        "http://127.0.0.1:3128",
        "http://127.0.0.1:3128",
        "socks5://127.0.0.1:1080",
        "socks5://127.0.0.1:1080",
      ]);
    });

    it("hands yt-dlp a fresh copy of the cookies file for each attempt, for both runs", async () => {
      const folder = mkdtempSync(join(tmpdir(), "vidrows-cookies-"));
      const cookies = join(folder, "cookies.txt");
      writeFileSync(cookies, "# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t0\tSOCS\tCAI\n");
      const withCookies = new YtDlpCaptionSource({
        executable: ytDlp.path,
        access: new PlatformAccess({ cookiesFile: cookies }),
      });
      try {
        const before = ytDlp.calls().length;
        await withCookies.fetchTranscript(videoId);
        const copies = ytDlp
          .calls()
          .slice(before)
          .map((args) => args[args.indexOf("--cookies") + 1]);
        expect(copies).toHaveLength(2);
        expect(copies[0]).toBe(copies[1]);
        // A copy, not the operator's file: yt-dlp writes its cookies back when it ends.
        expect(copies[0]).not.toBe(cookies);
        expect(existsSync(copies[0] ?? "")).toBe(false);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });

  describe("not found", () => {
    it("says captions_unavailable, naming VIDROWS_YTDLP_PATH, when the executable is gone", async () => {
      const vanishing = createFakeYtDlp();
      const orphaned = new YtDlpCaptionSource({ executable: vanishing.path });
      rmSync(vanishing.path);
      try {
        const error = await captionFailure(orphaned.fetchTranscript(videoId));
        expect(error.code).toBe("captions_unavailable");
        expect(error.message).toMatch(/VIDROWS_YTDLP_PATH/);
        expect(error.message).toMatch(/ENOENT/);
      } finally {
        vanishing.remove();
      }
    });
  });

  describe("no subtitles", () => {
    it("says no_captions when the video has no caption track, without downloading", async () => {
      ytDlp.script({ "*": { stdout: info("info-no-captions.json") } });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("no_captions");
      expect(error.retryable).toBe(false);
      expect(trackRequests()).toHaveLength(0);
    });

    it("says captions_unavailable when yt-dlp left the tracks out for want of a proof-of-origin token", async () => {
      ytDlp.script({
        "*": {
          stdout: info("info-no-captions.json"),
          stderr: captionFixture("yt-dlp/subtitles-need-token.stderr"),
        },
      });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/proof-of-origin/);
    });

    it("says captions_unavailable for a track URL marked exp=xpe, without downloading it", async () => {
      const marked = info("info-ok.json").replaceAll("&lang=en&fmt=json3", "&lang=en&exp=xpe&fmt=json3");
      ytDlp.script({ "*": { stdout: marked } });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(trackRequests()).toHaveLength(0);
    });
  });

  describe("yt-dlp's errors (exit code 1, as older releases and failed runs print them)", () => {
    const cases: Array<[string, string, string, number]> = [
      ["a private video", "private.stderr", "video_unavailable", 1],
      ["a removed video", "removed.stderr", "video_unavailable", 1],
      ["a bot check", "bot-check.stderr", "captions_unavailable", 1],
      ["HTTP 429", "http-429.stderr", "captions_unavailable", 1],
      [
        "the session's rate limit (worded as 'Video unavailable')",
        "rate-limited.stderr",
        "captions_unavailable",
        1,
      ],
      ["a release too old for the command line", "old-release.stderr", "captions_unavailable", 2],
    ];
    for (const [title, file, code, exitCode] of cases) {
      it(`maps ${title} to ${code}`, async () => {
        ytDlp.script({ "*": { stderr: captionFixture(`yt-dlp/${file}`), exitCode } });
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code).toBe(code);
        expect(error.retryable).toBe(code === "captions_unavailable");
        expect(error.message).not.toMatch(/ERROR:|https:\/\/github/);
        expect(trackRequests()).toHaveLength(0);
      });
    }

    it("tells an old release to update itself", async () => {
      ytDlp.script({ "*": { stderr: captionFixture("yt-dlp/old-release.stderr"), exitCode: 2 } });
      expect((await captionFailure(source.fetchTranscript(videoId))).message).toMatch(/yt-dlp -U/);
    });

    it("maps output that is not a video's info to captions_unavailable", async () => {
      ytDlp.script({ "*": { stdout: "<html>not json</html>" } });
      expect((await captionFailure(source.fetchTranscript(videoId))).code).toBe("captions_unavailable");
    });

    it("refuses ids that are not video ids without running yt-dlp", async () => {
      const before = ytDlp.calls().length;
      expect((await captionFailure(source.fetchTranscript("--exec=rm"))).code).toBe("video_unavailable");
      expect(ytDlp.calls()).toHaveLength(before);
    });
  });

  describe("what current releases print with exit code 0 (--ignore-no-formats-error makes refusals warnings)", () => {
    const cases: Array<[string, string, string]> = [
      ["a private video", "warned-private.stderr", "video_unavailable"],
      ["a removed video", "warned-removed.stderr", "video_unavailable"],
      ["a geo-blocked video", "warned-geo-blocked.stderr", "video_unavailable"],
      ["a members-only video", "warned-members-only.stderr", "video_unavailable"],
      ["a bot check", "warned-bot-check.stderr", "captions_unavailable"],
      ["the session's rate limit", "warned-rate-limited.stderr", "captions_unavailable"],
      [
        "a client turned away from a made-for-kids video",
        "warned-made-for-kids.stderr",
        "captions_unavailable",
      ],
    ];
    for (const [title, file, code] of cases) {
      it(`maps ${title} to ${code}, never no_captions`, async () => {
        ytDlp.script({
          "*": { stdout: info("info-unplayable.json"), stderr: captionFixture(`yt-dlp/${file}`) },
        });
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code).toBe(code);
        expect(error.retryable).toBe(code === "captions_unavailable");
        expect(error.message).not.toMatch(/WARNING:|https:\/\/github|--cookies/);
        expect(trackRequests()).toHaveLength(0);
      });
    }

    it("maps a private and a members-only video to video_unavailable where a 2026 release warns only of formats", async () => {
      for (const [file, said] of [
        ["info-private-2026.json", /private video/],
        ["info-members-only-2026.json", /members only/],
      ] as const) {
        ytDlp.script({
          "*": { stdout: info(file), stderr: captionFixture("yt-dlp/warned-formats-only.stderr") },
        });
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code, file).toBe("video_unavailable");
        expect(error.message, file).toMatch(said);
      }
      expect(trackRequests()).toHaveLength(0);
    });

    it("says no_captions for a video whose captions are off, though a format manifest answered 404", async () => {
      ytDlp.script({
        "*": {
          stdout: info("info-no-captions.json"),
          stderr: captionFixture("yt-dlp/warned-manifest-404.stderr"),
        },
      });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("no_captions");
      expect(error.retryable).toBe(false);
    });

    it("maps a client told to watch on the latest version of YouTube to captions_unavailable, retryable", async () => {
      ytDlp.script({
        "*": {
          stderr:
            "ERROR: [youtube] Kf7tGz2xQ0A: This video is unavailable. Watch on the latest version of YouTube.\n",
          exitCode: 1,
        },
      });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.retryable).toBe(true);
    });

    it("says no_captions for a playable video without tracks, whatever it warns of formats", async () => {
      ytDlp.script({
        "*": {
          stdout: info("info-no-captions.json"),
          stderr: captionFixture("yt-dlp/warned-formats-only.stderr"),
        },
      });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("no_captions");
      expect(error.retryable).toBe(false);
    });

    it("asks for subtitles, so that yt-dlp warns of tracks it left out for want of a token", async () => {
      const before = ytDlp.calls().length;
      await source.fetchTranscript(videoId);
      const args = ytDlp.calls()[before] ?? [];
      expect(args).toContain("--write-subs");
      expect(args).toContain("--write-auto-subs");
      expect(args).toContain("--ignore-no-formats-error");
    });

    it("never reads another language because yt-dlp left the video's own track out", async () => {
      // The English track needed a token: yt-dlp dropped it and every track after it, leaving Chinese.
      ytDlp.script({
        "*": {
          stdout: info("info-only-zh-left.json"),
          stderr: captionFixture("yt-dlp/subtitles-left-out.stderr"),
        },
      });
      for (const language of [undefined, "en"]) {
        const error = await captionFailure(source.fetchTranscript(videoId, { language }));
        expect(error.code, String(language)).toBe("captions_unavailable");
        expect(error.sawCaptionTracks).toBe(true);
      }
      expect(trackRequests()).toHaveLength(0);
      // The one left in the asked language is still read.
      const chinese = await source.fetchTranscript(videoId, { language: "zh-Hans" });
      expect(chinese.language).toBe("zh-Hans");
    });

    it("maps a run that got no player answer at all (HTTP 429, then an ERROR) to captions_unavailable", async () => {
      ytDlp.script({ "*": { stderr: captionFixture("yt-dlp/no-player-response.stderr"), exitCode: 1 } });
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/Failed to extract any player response/);
    });
  });

  describe("hung", () => {
    it("kills yt-dlp and everything it started at the time limit, and says captions_unavailable", async () => {
      const hungId = "hungVideo01";
      ytDlp.script({ [hungId]: { hang: true } });
      const impatient = new YtDlpCaptionSource({ executable: ytDlp.path, timeoutMs: 2000 });
      const error = await captionFailure(impatient.fetchTranscript(hungId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/did not finish within 2 s/);
      const child = ytDlp.pid(hungId);
      const grandchild = ytDlp.pid(hungId, "grandchild");
      expect(child).not.toBeNull();
      expect(grandchild).not.toBeNull();
      // Killed at the time limit; each is gone once reaped (yt-dlp by this process, the grandchild by
      // whoever adopted it), which takes a moment under load, not a time limit. A process not killed
      // would hang for ever and fail the wait.
      await vi.waitFor(() => expect(processIsGone(child ?? 0)).toBe(true), { timeout: 10_000 });
      await vi.waitFor(() => expect(processIsGone(grandchild ?? 0)).toBe(true), { timeout: 10_000 });
    });

    it("kills yt-dlp when the caller aborts, with the caller's reason", async () => {
      const hungId = "hungVideo02";
      ytDlp.script({ [hungId]: { hang: true } });
      const controller = new AbortController();
      const pending = source.fetchTranscript(hungId, { signal: controller.signal });
      const settled = pending.catch((reason: unknown) => reason);
      await vi.waitFor(() => expect(ytDlp.pid(hungId, "grandchild")).not.toBeNull(), { timeout: 10_000 });
      const reason = new Error("worker stopping");
      controller.abort(reason);
      expect(await settled).toBe(reason);
      // Killed at the abort; gone once the kernel has reaped it, a moment later on a busy machine.
      await vi.waitFor(() => expect(processIsGone(ytDlp.pid(hungId) ?? 0)).toBe(true), { timeout: 10_000 });
      await vi.waitFor(() => expect(processIsGone(ytDlp.pid(hungId, "grandchild") ?? 0)).toBe(true), {
        timeout: 10_000,
      });
    });
  });
});
