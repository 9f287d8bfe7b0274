// The youtube source's InnerTube clients: the next client is asked when the platform refuses the one we
// said we are (an outdated version, track URLs that need a proof-of-origin token), and only then.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCaptionSource } from "../../src/captions/create-caption-source.js";
import { parseClientList } from "../../src/captions/innertube-client.js";
import { needsProofOfOrigin } from "../../src/captions/proof-of-origin.js";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { type LocalServer, startLocalServer } from "./local-servers.js";
import { captionFailure, captionFixture } from "../support/captions.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { loopbackGuard } from "../support/loopback-egress.js";

const videoId = "Kf7tGz2xQ0A";
interface PlayerAnswer {
  readonly status: number;
  readonly body: string;
}

describe("The youtube source's clients", () => {
  let platform: LocalServer;
  let source: YouTubeCaptionSource;
  /** The answer of the player endpoint to each client, by its clientName. */
  let answers: Record<string, PlayerAnswer>;
  const player = (name: string, status = 200): PlayerAnswer => ({
    status,
    body: captionFixture(`youtube/${name}`).replaceAll("https://www.youtube.com", platform.origin),
  });
  const askedClients = () =>
    platform.requests
      .filter((r) => r.url.pathname === "/youtubei/v1/player")
      .map((r) => JSON.parse(r.body).context.client.clientName as string);
  const trackRequests = () => platform.requests.filter((r) => r.url.pathname === "/api/timedtext");

  beforeAll(async () => {
    platform = await startLocalServer((request, response) => {
      if (request.url.pathname === "/youtubei/v1/player") {
        const client = JSON.parse(request.body).context.client;
        const answer = answers[client.clientName] ?? { status: 500, body: "" };
        expect(request.headers["x-youtube-client-version"]).toBe(client.clientVersion);
        response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end(captionFixture("auto.en.json3"));
      }
    });
    // Two clients named by the setting, so that these cases read the same whatever the default list is.
    source = new YouTubeCaptionSource({
      baseUrl: platform.origin,
      timeoutMs: 5000,
      clients: parseClientList("ANDROID_VR,ANDROID"),
      egress: loopbackGuard(),
    });
  });
  afterAll(async () => {
    await source.close();
    await platform.close();
  });
  beforeEach(() => {
    platform.requests.length = 0;
  });

  const playerRequests = () => platform.requests.filter((r) => r.url.pathname === "/youtubei/v1/player");

  it("asks by default the clients the maintained tools rely on now, in their order and versions", async () => {
    answers = {};
    const byDefault = new YouTubeCaptionSource({
      baseUrl: platform.origin,
      timeoutMs: 5000,
      egress: loopbackGuard(),
    });
    answers = {
      VISIONOS: player("player-made-for-kids.json"),
      ANDROID_VR: player("player-auto-only.json", 400),
      ANDROID: player("player-auto-only.json"),
    };
    await byDefault.fetchTranscript(videoId);
    expect(askedClients()).toEqual(["VISIONOS", "ANDROID_VR", "ANDROID"]);
    const sent = playerRequests().map((r) => ({
      version: JSON.parse(r.body).context.client.clientVersion,
      number: r.headers["x-youtube-client-name"],
      agent: r.headers["user-agent"],
    }));
    expect(sent.map((s) => s.version)).toEqual(["1.02", "1.65.10", "21.26.364"]);
    expect(sent.map((s) => s.number)).toEqual(["101", "28", "3"]);
    expect(sent[2]?.agent).toContain("com.google.android.youtube/21.26.364");
  });

  it("asks the clients VIDROWS_YOUTUBE_CLIENTS names, in its order and at its versions", async () => {
    const configured = createCaptionSource("youtube", {
      youtubeBaseUrl: platform.origin,
      youtubeClients: " ANDROID@20.10.38 , ANDROID_VR ",
      access: new PlatformAccess({ egress: loopbackGuard() }),
    });
    answers = { ANDROID: player("player-auto-only.json", 400), ANDROID_VR: player("player-auto-only.json") };
    try {
      await configured.fetchTranscript(videoId);
    } finally {
      await configured.close?.();
    }
    expect(askedClients()).toEqual(["ANDROID", "ANDROID_VR"]);
    const [android, vr] = playerRequests();
    expect(JSON.parse(android?.body ?? "{}").context.client.clientVersion).toBe("20.10.38");
    expect(android?.headers["user-agent"]).toContain("com.google.android.youtube/20.10.38");
    expect(JSON.parse(vr?.body ?? "{}").context.client.clientVersion).toBe("1.65.10");
  });

  it("refuses a bad VIDROWS_YOUTUBE_CLIENTS at start-up, naming it", () => {
    expect(loadConfig({ VIDROWS_YOUTUBE_CLIENTS: "ANDROID@20.10.38" }).captionsAccess).toMatchObject({
      youtubeClients: "ANDROID@20.10.38",
    });
    for (const bad of ["WEB", "ANDROID@latest", "ANDROID,,VISIONOS", "ANDROID,ANDROID", "ANDROID@1@2"]) {
      const attempt = () => loadConfig({ VIDROWS_YOUTUBE_CLIENTS: bad });
      expect(attempt, bad).toThrow(ConfigError);
      expect(attempt, bad).toThrow(/^VIDROWS_YOUTUBE_CLIENTS must be/);
    }
  });

  it("asks ANDROID_VR only, when it is served", async () => {
    answers = { ANDROID_VR: player("player-auto-only.json") };
    await source.fetchTranscript(videoId);
    expect(askedClients()).toEqual(["ANDROID_VR"]);
  });

  it("asks ANDROID when ANDROID_VR's version is refused (HTTP 400) or it is not served on that app", async () => {
    const refused = {
      status: 200,
      body: JSON.stringify({
        playabilityStatus: {
          status: "UNPLAYABLE",
          reason: "The following content is not available on this app.",
        },
      }),
    };
    for (const first of [player("player-auto-only.json", 400), refused]) {
      platform.requests.length = 0;
      answers = { ANDROID_VR: first, ANDROID: player("player-auto-only.json") };
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
      expect(askedClients()).toEqual(["ANDROID_VR", "ANDROID"]);
    }
  });

  it("asks the next client when the first is told a made-for-kids video is not available, or to update", async () => {
    const firsts = ["player-made-for-kids.json", "player-update-client.json", "player-latest-version.json"];
    for (const first of firsts) {
      platform.requests.length = 0;
      answers = { ANDROID_VR: player(first), ANDROID: player("player-auto-only.json") };
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.cues[0]?.text, first).toBe("hey everyone welcome back to the kitchen");
      expect(askedClients(), first).toEqual(["ANDROID_VR", "ANDROID"]);
    }
  });

  it("says captions_unavailable, retryable, when every client is told the video is not available", async () => {
    answers = {
      ANDROID_VR: player("player-made-for-kids.json"),
      ANDROID: player("player-made-for-kids.json"),
    };
    const error = await captionFailure(source.fetchTranscript(videoId));
    expect(error.code).toBe("captions_unavailable");
    expect(error.retryable).toBe(true);
  });

  it("asks ANDROID when ANDROID_VR's track URLs need a token, and says captions_unavailable when its do too", async () => {
    answers = { ANDROID_VR: player("player-po-token.json"), ANDROID: player("player-auto-only.json") };
    expect((await source.fetchTranscript(videoId)).cues).toHaveLength(3);
    expect(askedClients()).toEqual(["ANDROID_VR", "ANDROID"]);

    platform.requests.length = 0;
    answers = { ANDROID_VR: player("player-po-token.json"), ANDROID: player("player-po-token.json") };
    const error = await captionFailure(source.fetchTranscript(videoId));
    expect(error.code).toBe("captions_unavailable");
    expect(error.message).toMatch(/As ANDROID_VR: .*proof-of-origin.* As ANDROID: .*proof-of-origin/);
    expect(trackRequests()).toHaveLength(0);
  });

  it("asks no other client when our address is refused or the answer is about the video", async () => {
    const cases: Array<[PlayerAnswer, string]> = [
      [player("player-ok.json", 429), "captions_unavailable"],
      [player("player-bot-check.json"), "captions_unavailable"],
      [player("player-rate-limited.json"), "captions_unavailable"],
      [player("player-private.json"), "video_unavailable"],
      [player("player-captions-disabled.json"), "no_captions"],
    ];
    for (const [answer, code] of cases) {
      platform.requests.length = 0;
      answers = { ANDROID_VR: answer, ANDROID: player("player-auto-only.json") };
      expect((await captionFailure(source.fetchTranscript(videoId))).code).toBe(code);
      expect(askedClients()).toEqual(["ANDROID_VR"]);
    }
  });
});

describe("Track URLs that need a proof-of-origin token", () => {
  const url = (query: string) => new URL(`https://www.youtube.com/api/timedtext?v=${videoId}&${query}`);

  it("are those marked xpe or xpv in exp, in any of its values, without a pot", () => {
    expect(needsProofOfOrigin(url("exp=xpe&lang=en"))).toBe(true);
    expect(needsProofOfOrigin(url("exp=xpv&lang=en"))).toBe(true);
    expect(needsProofOfOrigin(url("exp=xpa&exp=xpe"))).toBe(true);
    expect(needsProofOfOrigin(url("exp=xpa,xpv"))).toBe(true);
    expect(needsProofOfOrigin(url("exp=xpe&pot=MnQ&c=WEB"))).toBe(false);
    expect(needsProofOfOrigin(url("exp=xpa&lang=en"))).toBe(false);
    expect(needsProofOfOrigin(url("lang=en&kind=asr"))).toBe(false);
  });
});
