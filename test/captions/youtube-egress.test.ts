// The youtube source's own requests through the egress guard: a caption track URL (or the platform's own
// name) that leads inside, by name, literal address, IPv4-mapped form or redirect, fails the video
// video_unavailable in words that say nothing of the address or its port, and a loopback canary hears
// nothing. The platform stands on 127.0.0.2, opened to the guard as the public internet.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";
import { AllowedNetworks } from "../../src/domain/network-addresses.js";
import { EgressGuard } from "../../src/platforms/egress/egress-guard.js";
import type { ResolveName } from "../../src/platforms/egress/egress-target.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import {
  type Canary,
  publicAddress,
  type PublicPage,
  startCanary,
  startPublicPage,
} from "../platforms/egress/canary.js";
import { captionFailure, captionFixture, json3Track } from "../support/captions.js";
import { closedOrigin } from "./local-servers.js";

const videoId = "Kf7tGz2xQ0A";
const refusal = `For ${videoId}, the page leads to an address vidrows does not reach.`;

/** The test's own resolver: the platform's name is public, the others lead inside. */
const resolve: ResolveName = async (hostname) => {
  const address = { "platform.example.com": publicAddress, "inside.example.com": "127.0.0.1" }[hostname];
  if (address === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return [{ address, family: 4 }];
};

let canary: Canary;
let platform: PublicPage;
/** Where the player answer says the caption tracks are (the platform itself unless a case says otherwise). */
let trackOrigin: string;
let guard: EgressGuard;
const platformOrigin = () => `http://platform.example.com:${platform.port}`;

beforeAll(async () => {
  canary = await startCanary();
  platform = await startPublicPage((path) => {
    if (path === "/youtubei/v1/player") {
      const player = captionFixture("youtube/player-ok.json").replaceAll(
        "https://www.youtube.com",
        trackOrigin,
      );
      return { status: 200, headers: { "content-type": "application/json" }, body: player };
    }
    if (path === "/api/timedtext") {
      return { status: 200, headers: { "content-type": "application/json" }, body: json3Track("hello") };
    }
    return null;
  });
});
afterAll(async () => {
  await canary.close();
  await platform.close();
});
beforeEach(() => {
  trackOrigin = platformOrigin();
  guard = new EgressGuard({ allowed: new AllowedNetworks([publicAddress]), resolve });
});

function source(baseUrl = platformOrigin()): YouTubeCaptionSource {
  return new YouTubeCaptionSource({
    baseUrl,
    access: new PlatformAccess({ egress: guard }),
    timeoutMs: 5000,
  });
}

describe("the youtube source through the egress guard", () => {
  it("reads captions from a platform at a public address", async () => {
    const transcript = await source().fetchTranscript(videoId);
    expect(transcript.cues[0]?.text).toBe("hello");
  });

  it("fails a track URL leading inside video_unavailable, the same words for an open port and a closed one", async () => {
    const closed = new URL(await closedOrigin()).port;
    const messages = new Set<string>();
    for (const origin of [
      `http://inside.example.com:${canary.port}`,
      `http://inside.example.com:${closed}`,
      `http://127.0.0.1:${canary.port}`,
      `http://127.0.0.1:${closed}`,
      `http://[::ffff:127.0.0.1]:${canary.port}`,
      `https://inside.example.com:${canary.port}`,
      `http://169.254.169.254`,
    ]) {
      trackOrigin = origin;
      const failure = await captionFailure(source().fetchTranscript(videoId));
      expect(failure.code, origin).toBe("video_unavailable");
      messages.add(failure.message);
    }
    expect([...messages]).toEqual([refusal]);
    expect(canary.hits).toEqual([]);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`fails a track that ${status}-redirects inside, and the canary hears nothing`, async () => {
      // The track URL is the platform's own; the answer there sends the client on to loopback.
      trackOrigin = `${platformOrigin()}/redirect-${status}?to=${encodeURIComponent(canary.url("inside.example.com", "/secret"))}&`;
      const failure = await captionFailure(source().fetchTranscript(videoId));
      expect(failure).toMatchObject({ code: "video_unavailable", message: refusal });
      expect(platform.paths).toContain(`/redirect-${status}`);
      expect(canary.hits).toEqual([]);
    });
  }

  it("fails a platform whose own name resolves inside, asking nothing there", async () => {
    const failure = await captionFailure(
      source(`http://inside.example.com:${canary.port}`).fetchTranscript(videoId),
    );
    expect(failure).toMatchObject({ code: "video_unavailable", message: refusal });
    expect(canary.hits).toEqual([]);
  });

  it("refuses a track URL of another scheme without fetching it", async () => {
    trackOrigin = "file://";
    const failure = await captionFailure(source().fetchTranscript(videoId));
    expect(failure.message).toMatch(/unusable caption track URL/);
    expect(failure.message).not.toMatch(/etc|passwd|api\/timedtext/);
  });
});
