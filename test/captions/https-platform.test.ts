// The platform over HTTPS, as YouTube is: a local HTTPS server with the test certificate, trusted through
// NODE_EXTRA_CA_CERTS (vitest.config.ts), reached through the proxy setting (an http proxy pair, SOCKS5)
// by the youtube source, and by the chain when youtube is refused and yt-dlp writes the track.
import { guardProxy, recordExits } from "../support/egress-exits.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PlatformError } from "../../src/platforms/platform-error.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { createCaptionSource } from "../../src/captions/create-caption-source.js";
import { createFakeYtDlp, type FakeYtDlp } from "./fake-ytdlp.js";
import {
  type LocalProxy,
  type LocalServer,
  type LocalSocksProxy,
  startLocalProxy,
  startLocalServer,
  startLocalSocksProxy,
} from "./local-servers.js";
import { captionFixture } from "../support/captions.js";
import { loopbackGuard } from "../support/loopback-egress.js";

const videoId = "Kf7tGz2xQ0A";
describe("The platform over HTTPS, through the proxy setting", () => {
  let platform: LocalServer;
  let httpProxies: [LocalProxy, LocalProxy];
  let socks: LocalSocksProxy;
  let ytDlp: FakeYtDlp;
  let player: string;
  const atOrigin = (text: string) => text.replaceAll("https://www.youtube.com", platform.origin);
  const target = () => platform.origin.replace("https://", "");

  beforeAll(async () => {
    platform = await startLocalServer(
      (request, response) => {
        if (request.url.pathname === "/youtubei/v1/player") {
          response
            .writeHead(200, { "content-type": "application/json" })
            .end(atOrigin(captionFixture(player)));
        } else {
          response
            .writeHead(200, { "content-type": "application/json" })
            .end(captionFixture("auto.en.json3"));
        }
      },
      { tls: true },
    );
    httpProxies = [await startLocalProxy(), await startLocalProxy()];
    socks = await startLocalSocksProxy();
    ytDlp = createFakeYtDlp();
  });
  afterAll(async () => {
    await platform.close();
    await Promise.all([...httpProxies.map((proxy) => proxy.close()), socks.close()]);
    ytDlp.remove();
  });
  beforeEach(() => {
    platform.requests.length = 0;
    player = "youtube/player-auto-only.json";
  });

  it("reads captions over HTTPS through an http proxy pair and a SOCKS5 proxy, in turn", async () => {
    expect(platform.origin).toMatch(/^https:/);
    const source = createCaptionSource("youtube", {
      youtubeBaseUrl: platform.origin,
      access: new PlatformAccess({
        proxies: [...httpProxies.map((proxy) => proxy.url), socks.url],
        egress: loopbackGuard(),
      }),
    });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const transcript = await source.fetchTranscript(videoId);
        expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
      }
    } finally {
      await source.close?.();
    }
    expect(httpProxies.map((proxy) => new Set(proxy.tunnels))).toEqual([
      new Set([target()]),
      new Set([target()]),
    ]);
    expect(new Set(socks.connections)).toEqual(new Set([target()]));
  });

  it("says captions_unavailable through a bot check, and the chain's yt-dlp reads the track over HTTPS", async () => {
    player = "youtube/player-bot-check.json";
    ytDlp.script({ "*": { stdout: atOrigin(captionFixture("yt-dlp/info-auto-only.json")) } });
    const access = new PlatformAccess({ proxies: [socks.url], egress: loopbackGuard() });
    const exits = recordExits(access);
    const chain = createCaptionSource("youtube,yt-dlp", {
      youtubeBaseUrl: platform.origin,
      access,
      ytDlpPath: ytDlp.path,
    });
    try {
      const transcript = await chain.fetchTranscript(videoId);
      expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
    } finally {
      await chain.close?.();
    }
    const runs = ytDlp.calls();
    expect(runs).toHaveLength(2);
    for (const args of runs) expect(args).not.toContain("--proxy");
    for (const proxy of ytDlp.proxies()) expect(proxy).toMatch(guardProxy);
    // The youtube source's own requests, then yt-dlp's two runs: each through a session of its own.
    expect(exits).toEqual([socks.url, socks.url, socks.url]);
    const timedText = platform.requests.filter((r) => r.url.pathname === "/api/timedtext");
    expect(timedText).toHaveLength(1);
  });

  it("says captions_unavailable, retryable, when the proxy reaches nothing", async () => {
    const source = createCaptionSource("youtube", {
      youtubeBaseUrl: "https://127.0.0.1:9",
      access: new PlatformAccess({ proxies: [socks.url], egress: loopbackGuard() }),
      timeoutMs: 5000,
    });
    const error = (await source.fetchTranscript(videoId).catch((reason: unknown) => reason)) as PlatformError;
    expect(error.code).toBe("captions_unavailable");
    expect(error.retryable).toBe(true);
  });
});
