// VIDROWS_CAPTIONS=youtube,yt-dlp: the youtube source against a local server, then a fake yt-dlp; the next
// source is asked only when one answers captions_unavailable, and both give the same transcript.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CaptionSource } from "../../src/captions/caption-source.js";
import { createCaptionSource } from "../../src/captions/create-caption-source.js";
import { FallbackCaptionSource } from "../../src/captions/fallback-source.js";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";
import { YtDlpCaptionSource } from "../../src/captions/ytdlp-source.js";
import { createFakeYtDlp, type FakeYtDlp } from "./fake-ytdlp.js";
import { type LocalServer, startLocalServer } from "./local-servers.js";
import { captionFailure, captionFixture } from "../support/captions.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { loopbackGuard } from "../support/loopback-egress.js";

const videoId = "Kf7tGz2xQ0A";
describe("A chain of captions sources", () => {
  let platform: LocalServer;
  let ytDlp: FakeYtDlp;
  let chain: CaptionSource;
  let playerStatus: number;
  let playerBody: string;
  const atOrigin = (text: string) => text.replaceAll("https://www.youtube.com", platform.origin);
  const playerRequests = () => platform.requests.filter((r) => r.url.pathname === "/youtubei/v1/player");

  beforeAll(async () => {
    platform = await startLocalServer((request, response) => {
      if (request.url.pathname === "/youtubei/v1/player") {
        response.writeHead(playerStatus, { "content-type": "application/json" }).end(playerBody);
      } else if (request.url.searchParams.get("kind") === "asr") {
        response.writeHead(200, { "content-type": "application/json" }).end(captionFixture("auto.en.json3"));
      } else {
        response.writeHead(404).end();
      }
    });
    ytDlp = createFakeYtDlp();
    chain = createCaptionSource("youtube, yt-dlp", {
      youtubeBaseUrl: platform.origin,
      ytDlpPath: ytDlp.path,
      timeoutMs: 5000,
      access: new PlatformAccess({ egress: loopbackGuard() }),
    });
  });
  afterAll(async () => {
    await chain.close?.();
    await platform.close();
    ytDlp.remove();
  });
  beforeEach(() => {
    platform.requests.length = 0;
    playerStatus = 200;
    playerBody = atOrigin(captionFixture("youtube/player-auto-only.json"));
    ytDlp.script({ "*": { stdout: atOrigin(captionFixture("yt-dlp/info-auto-only.json")) } });
  });

  it("is built from the setting, youtube first", () => {
    expect(chain).toBeInstanceOf(FallbackCaptionSource);
    const links = (chain as FallbackCaptionSource).links;
    expect(links.map((link) => link.name)).toEqual(["youtube", "yt-dlp"]);
    expect(links[0]?.source).toBeInstanceOf(YouTubeCaptionSource);
    expect(links[1]?.source).toBeInstanceOf(YtDlpCaptionSource);
  });

  it("answers from youtube without running yt-dlp when youtube works", async () => {
    const before = ytDlp.calls().length;
    const transcript = await chain.fetchTranscript(videoId);
    expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
    expect(ytDlp.calls()).toHaveLength(before);
  });

  it("asks yt-dlp when youtube answers captions_unavailable, and gets the same transcript", async () => {
    const fromYouTube = await chain.fetchTranscript(videoId);
    for (const refusal of [
      () => (playerStatus = 429),
      () => (playerBody = atOrigin(captionFixture("youtube/player-bot-check.json"))),
      () => (playerBody = atOrigin(captionFixture("youtube/player-po-token.json"))),
    ]) {
      refusal();
      const before = ytDlp.calls().length;
      const fromYtDlp = await chain.fetchTranscript(videoId);
      // Two runs: the info, then the chosen track written by yt-dlp itself.
      expect(ytDlp.calls()).toHaveLength(before + 2);
      expect(fromYtDlp.cues).toEqual(fromYouTube.cues);
      expect(fromYtDlp.language).toBe(fromYouTube.language);
      playerStatus = 200;
      playerBody = atOrigin(captionFixture("youtube/player-auto-only.json"));
    }
  });

  it("stops at no_captions or video_unavailable: facts about the video", async () => {
    for (const [file, code] of [
      ["player-captions-disabled.json", "no_captions"],
      ["player-private.json", "video_unavailable"],
    ] as const) {
      playerBody = atOrigin(captionFixture(`youtube/${file}`));
      const before = ytDlp.calls().length;
      const error = await captionFailure(chain.fetchTranscript(videoId));
      expect(error.code, file).toBe(code);
      expect(ytDlp.calls(), file).toHaveLength(before);
    }
  });

  it("says captions_unavailable with every source's reason when all of them are refused", async () => {
    playerStatus = 429;
    ytDlp.script({ "*": { stderr: captionFixture("yt-dlp/bot-check.stderr"), exitCode: 1 } });
    const error = await captionFailure(chain.fetchTranscript(videoId));
    expect(error.code).toBe("captions_unavailable");
    expect(error.message).toMatch(/^youtube: .*429.* Then yt-dlp: .*not a bot/);
  });

  it("keeps youtube's retryable bot check when yt-dlp (exit code 0) only warns of the same", async () => {
    playerBody = atOrigin(captionFixture("youtube/player-bot-check.json"));
    ytDlp.script({
      "*": {
        stdout: atOrigin(captionFixture("yt-dlp/info-unplayable.json")),
        stderr: captionFixture("yt-dlp/warned-bot-check.stderr"),
      },
    });
    const error = await captionFailure(chain.fetchTranscript(videoId));
    expect(error.code).toBe("captions_unavailable");
    expect(error.retryable).toBe(true);
  });

  it("keeps youtube's knowledge of tracks it could not read over yt-dlp finding none", async () => {
    playerBody = atOrigin(captionFixture("youtube/player-po-token.json"));
    ytDlp.script({ "*": { stdout: atOrigin(captionFixture("yt-dlp/info-no-captions.json")) } });
    const error = await captionFailure(chain.fetchTranscript(videoId));
    expect(error.code).toBe("captions_unavailable");
    expect(error.message).toMatch(/contradicted/);
  });

  it("passes on the answer of the last source when it is about the video", async () => {
    playerStatus = 503;
    ytDlp.script({ "*": { stderr: captionFixture("yt-dlp/private.stderr"), exitCode: 1 } });
    expect((await captionFailure(chain.fetchTranscript(videoId))).code).toBe("video_unavailable");
  });

  it("asks no further source once the caller has aborted", async () => {
    playerStatus = 429;
    const controller = new AbortController();
    const reason = new Error("worker stopping");
    controller.abort(reason);
    const before = ytDlp.calls().length;
    await expect(chain.fetchTranscript(videoId, { signal: controller.signal })).rejects.toBe(reason);
    expect(playerRequests()).toHaveLength(0);
    expect(ytDlp.calls()).toHaveLength(before);
  });
});
