// The youtube captions source against recorded-shape player responses served by a local server: track
// choice, the error mapping of the contract (one case each), timeouts, aborts and the proxy.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type PlatformErrorCode } from "../../src/platforms/platform-error.js";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";
import {
  closedOrigin,
  type Handler,
  type LocalServer,
  type SeenRequest,
  startLocalProxy,
  startLocalServer,
} from "./local-servers.js";
import { captionFailure, captionFixture, json3Track } from "../support/captions.js";
import { loopbackGuard } from "../support/loopback-egress.js";

const videoId = "Kf7tGz2xQ0A";
/** The caption tracks the fake platform serves, by language and kind, as YouTube would with fmt=json3. */
function serveTrack(request: SeenRequest): string {
  const lang = request.url.searchParams.get("lang");
  if (request.url.searchParams.get("kind") === "asr") return captionFixture("auto.en.json3");
  if (lang === "en") return json3Track("welcome to the kitchen", "today a tomato sauce");
  if (lang === "de") return json3Track("willkommen in der Küche");
  if (lang === "fr-CA") return json3Track("bienvenue dans la cuisine");
  return "";
}

describe("Captions from YouTube", () => {
  let platform: LocalServer;
  let source: YouTubeCaptionSource;
  let playerStatus: number;
  let playerBody: string;

  /** A recorded player response, its track URLs pointed at the local server. */
  const usePlayer = (name: string, status = 200) => {
    playerStatus = status;
    playerBody = captionFixture(`youtube/${name}`).replaceAll("https://www.youtube.com", platform.origin);
  };
  const playerRequests = () => platform.requests.filter((r) => r.url.pathname === "/youtubei/v1/player");
  const trackRequests = () => platform.requests.filter((r) => r.url.pathname === "/api/timedtext");

  let trackHandler: Handler;
  /** Makes the caption download hang; settles once the platform has received it. */
  const trackAskedAndNeverAnswered = () =>
    new Promise<void>((resolve) => {
      trackHandler = () => resolve();
    });
  const defaultTrackHandler: Handler = (request, response) => {
    response.writeHead(200, { "content-type": "application/json; charset=UTF-8" }).end(serveTrack(request));
  };

  beforeAll(async () => {
    platform = await startLocalServer((request, response) => {
      if (request.method === "POST" && request.url.pathname === "/youtubei/v1/player") {
        response
          .writeHead(playerStatus, { "content-type": "application/json; charset=UTF-8" })
          .end(playerBody);
      } else if (request.method === "GET" && request.url.pathname === "/api/timedtext") {
        trackHandler(request, response);
      } else {
        response.writeHead(404).end();
      }
    });
    source = new YouTubeCaptionSource({ baseUrl: platform.origin, timeoutMs: 5000, egress: loopbackGuard() });
  });
  afterAll(async () => {
    await source.close();
    await platform.close();
  });
  beforeEach(() => {
    platform.requests.length = 0;
    trackHandler = defaultTrackHandler;
    usePlayer("player-ok.json");
  });

  describe("choosing a track", () => {
    it("asks the player endpoint for the video and reads the manual track of its language as json3", async () => {
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.cues.map((cue) => cue.text)).toEqual([
        "welcome to the kitchen",
        "today a tomato sauce",
      ]);
      expect(transcript.language).toBe("en");
      expect(transcript.durationSeconds).toBe(212);

      const [player] = playerRequests();
      const body = JSON.parse(player?.body ?? "{}");
      expect(body.videoId).toBe(videoId);
      expect(body.context.client.clientName).toBe("VISIONOS");
      expect(typeof body.context.client.clientVersion).toBe("string");
      expect(player?.headers["content-type"]).toBe("application/json");
      const [track] = trackRequests();
      expect(track?.url.searchParams.get("fmt")).toBe("json3");
      expect(track?.url.searchParams.get("kind")).toBeNull();
    });

    it("takes the video's language from its default audio track, not from a mislabelled automatic track", async () => {
      // An English video: a written English track, and an automatic one the platform labelled Japanese.
      usePlayer("player-manual-en-auto-ja.json");
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.language).toBe("en");
      expect(transcript.cues[0]?.text).toBe("welcome to the kitchen");
      expect(trackRequests()[0]?.url.searchParams.get("kind")).toBeNull();
    });

    it("never reads a machine translation, even in the asked language", async () => {
      usePlayer("player-ok.json");
      playerBody = playerBody.replace("lang=fr-CA", "lang=en&tlang=fr-CA");
      const error = await captionFailure(source.fetchTranscript(videoId, { language: "fr" }));
      expect(error.code).toBe("no_captions");
      expect(trackRequests()).toHaveLength(0);
    });

    it("reads the asked language, matching by primary subtag too", async () => {
      const cases = [
        { language: "de", text: "willkommen in der Küche", code: "de" },
        { language: "en-GB", text: "welcome to the kitchen", code: "en" },
        { language: "fr", text: "bienvenue dans la cuisine", code: "fr-CA" },
        { language: "FR-ca", text: "bienvenue dans la cuisine", code: "fr-CA" },
      ];
      for (const { language, text, code } of cases) {
        const transcript = await source.fetchTranscript(videoId, { language });
        expect(transcript.cues[0]?.text, language).toBe(text);
        expect(transcript.language, language).toBe(code);
      }
    });

    it("falls back on automatic captions, and on the end of the captions when the length is unknown", async () => {
      usePlayer("player-auto-only.json");
      const transcript = await source.fetchTranscript(videoId, { language: "en-US" });
      expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
      expect(trackRequests()[0]?.url.searchParams.get("kind")).toBe("asr");
      expect(transcript.durationSeconds).toBe(14.15);
    });

    it("says no_captions when there is no track in the asked language, without downloading one", async () => {
      const error = await captionFailure(source.fetchTranscript(videoId, { language: "ja" }));
      expect(error.code).toBe("no_captions");
      expect(error.message).toMatch(/"ja"/);
      expect(trackRequests()).toHaveLength(0);
    });

    it("says no_captions when captions are disabled or the track list is empty", async () => {
      for (const name of ["player-captions-disabled.json", "player-empty-tracklist.json"]) {
        usePlayer(name);
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code, name).toBe("no_captions");
        expect(error.retryable).toBe(false);
      }
    });

    it("says no_captions when the track has no words", async () => {
      trackHandler = (_request, response) => response.writeHead(200).end('{"wireMagic":"pb3","events":[]}');
      expect((await captionFailure(source.fetchTranscript(videoId))).code).toBe("no_captions");
    });
  });

  describe("playability", () => {
    const cases: Array<[string, string, PlatformErrorCode]> = [
      ["an unavailable video or not a video (ERROR)", "player-unavailable.json", "video_unavailable"],
      ["a removed video (ERROR)", "player-removed.json", "video_unavailable"],
      ["a private video", "player-private.json", "video_unavailable"],
      ["a region-locked video (UNPLAYABLE)", "player-unplayable.json", "video_unavailable"],
      [
        "an age-restricted video (LOGIN_REQUIRED, age reason)",
        "player-age-restricted.json",
        "video_unavailable",
      ],
      ["a bot check", "player-bot-check.json", "captions_unavailable"],
      [
        "the session's rate limit ('try again later', status ERROR)",
        "player-rate-limited.json",
        "captions_unavailable",
      ],
      ["LOGIN_REQUIRED without an age reason", "player-login-required.json", "captions_unavailable"],
    ];
    for (const [title, file, code] of cases) {
      it(`maps ${title} to ${code}`, async () => {
        usePlayer(file);
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code).toBe(code);
        expect(error.retryable).toBe(code === "captions_unavailable");
        expect(trackRequests()).toHaveLength(0);
      });
    }

    it("maps an answer about another video (a blocked client's stand-in) to captions_unavailable", async () => {
      usePlayer("player-ok.json");
      playerBody = playerBody.replaceAll(`"videoId": "${videoId}"`, '"videoId": "aQvGIIdgFDM"');
      expect((await captionFailure(source.fetchTranscript(videoId))).code).toBe("captions_unavailable");
    });
  });

  describe("the platform refusing or failing us", () => {
    it("maps HTTP 429, 403 and 5xx from the player endpoint to captions_unavailable", async () => {
      for (const status of [429, 403, 500, 503]) {
        usePlayer("player-ok.json", status);
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code, String(status)).toBe("captions_unavailable");
        expect(error.message).toContain(String(status));
      }
    });

    it("maps a page that is not JSON (a consent or captcha page) to captions_unavailable", async () => {
      playerBody = '<html><form action="https://consent.youtube.com/s"></form></html>';
      expect((await captionFailure(source.fetchTranscript(videoId))).code).toBe("captions_unavailable");
    });

    it("maps HTTP 429 and 403 on the caption download to captions_unavailable", async () => {
      for (const status of [429, 403]) {
        trackHandler = (_request, response) => response.writeHead(status).end("Too many requests");
        const error = await captionFailure(source.fetchTranscript(videoId));
        expect(error.code, String(status)).toBe("captions_unavailable");
      }
    });

    it("maps a caption download that answers an empty body (no proof-of-origin token) to captions_unavailable", async () => {
      trackHandler = (_request, response) => response.writeHead(200, { "content-length": "0" }).end();
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/proof-of-origin/);
    });

    it("maps a track URL marked exp=xpe (a token is required) to captions_unavailable without downloading", async () => {
      usePlayer("player-po-token.json");
      const error = await captionFailure(source.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/proof-of-origin/);
      expect(trackRequests()).toHaveLength(0);
    });

    it("maps an unreadable caption download to captions_unavailable", async () => {
      trackHandler = (_request, response) => response.writeHead(200).end("<html>Sorry...</html>");
      expect((await captionFailure(source.fetchTranscript(videoId))).code).toBe("captions_unavailable");
    });

    it("maps a platform that cannot be reached to captions_unavailable", async () => {
      const nowhere = new YouTubeCaptionSource({ baseUrl: await closedOrigin(), egress: loopbackGuard() });
      expect((await captionFailure(nowhere.fetchTranscript(videoId))).code).toBe("captions_unavailable");
    });

    it("maps a platform that does not answer in time to captions_unavailable", async () => {
      trackHandler = () => {}; // never answers
      const impatient = new YouTubeCaptionSource({
        baseUrl: platform.origin,
        timeoutMs: 200,
        egress: loopbackGuard(),
      });
      const error = await captionFailure(impatient.fetchTranscript(videoId));
      expect(error.code).toBe("captions_unavailable");
      expect(error.message).toMatch(/no answer within/);
    });
  });

  it("gives up as soon as the caller aborts, with the caller's reason", async () => {
    const asked = trackAskedAndNeverAnswered();
    const controller = new AbortController();
    const reason = new Error("worker stopping");
    const pending = source.fetchTranscript(videoId, { signal: controller.signal });
    // Aborted once the platform holds the request, not after a time: a request still on its way when the
    // test ends would be counted by a later test (the proxy test once saw two caption downloads so).
    await asked;
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it("refuses ids that are not video ids without asking the platform", async () => {
    expect((await captionFailure(source.fetchTranscript("not/an/id"))).code).toBe("video_unavailable");
    expect(platform.requests).toHaveLength(0);
  });

  describe("through VIDROWS_YOUTUBE_PROXY", () => {
    it("sends every request to the platform through the proxy", async () => {
      const proxy = await startLocalProxy();
      const proxied = new YouTubeCaptionSource({
        baseUrl: platform.origin,
        proxy: proxy.url,
        egress: loopbackGuard(),
      });
      try {
        const transcript = await proxied.fetchTranscript(videoId);
        expect(transcript.cues[0]?.text).toBe("welcome to the kitchen");
        // The platform is http:// here: the proxy is sent plain requests in absolute form, as proxies expect.
        expect(proxy.tunnels).toEqual([]);
        expect(proxy.forwarded.map((line) => line.split("?")[0])).toEqual([
          `POST ${platform.origin}/youtubei/v1/player`,
          `GET ${platform.origin}/api/timedtext`,
        ]);
        expect(playerRequests()).toHaveLength(1);
        expect(trackRequests()).toHaveLength(1);
      } finally {
        await proxied.close();
        await proxy.close();
      }
    });

    it("hands a proxy that wants credentials the ones its URL carries, on plain http:// requests too", async () => {
      const basic = `Basic ${Buffer.from("scraper:s3cret pass").toString("base64")}`;
      const proxy = await startLocalProxy({ requiredAuthorization: basic });
      const proxied = new YouTubeCaptionSource({
        baseUrl: platform.origin,
        proxy: proxy.url.replace("http://", "http://scraper:s3cret%20pass@"),
        egress: loopbackGuard(),
      });
      try {
        const transcript = await proxied.fetchTranscript(videoId);
        expect(transcript.cues[0]?.text).toBe("welcome to the kitchen");
        expect(proxy.tunnels).toEqual([]);
        expect(proxy.authorizations).toEqual([basic, basic]);
        expect(proxy.forwarded).toHaveLength(2);
      } finally {
        await proxied.close();
        await proxy.close();
      }
    });

    it("fails with captions_unavailable when the proxy is down, though the platform is up", async () => {
      const proxied = new YouTubeCaptionSource({
        baseUrl: platform.origin,
        proxy: await closedOrigin(),
        egress: loopbackGuard(),
      });
      try {
        expect((await captionFailure(proxied.fetchTranscript(videoId))).code).toBe("captions_unavailable");
        expect(platform.requests).toHaveLength(0);
      } finally {
        await proxied.close();
      }
    });

    it("refuses a proxy that is not an http(s) or socks5 URL", () => {
      expect(() => new YouTubeCaptionSource({ proxy: "ftp://127.0.0.1:21" })).toThrow(/socks5/);
    });
  });
});
