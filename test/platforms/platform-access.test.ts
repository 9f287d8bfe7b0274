// How the platform sources reach the platform: the proxy pool (attempts alternating between a local proxy
// pair, each over a new connection), SOCKS5 through a local SOCKS server, the cookies file, the pace of
// requests, and the settings that carry them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCaptionSource } from "../../src/captions/create-caption-source.js";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { cookieHeader, parseNetscapeCookies } from "../../src/platforms/netscape-cookies.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { parseProxySetting, ProxyPool } from "../../src/platforms/proxy-pool.js";
import { type PacingClock, RequestPacing } from "../../src/platforms/request-pacing.js";
import {
  type LocalProxy,
  type LocalServer,
  startLocalProxy,
  startLocalServer,
  startLocalSocksProxy,
} from "../captions/local-servers.js";
import { captionFixture } from "../support/captions.js";
import { loopbackGuard } from "../support/loopback-egress.js";

const videoId = "Kf7tGz2xQ0A";
describe("Reaching the platform", () => {
  let platform: LocalServer;
  let folder: string;
  const playerRequests = () => platform.requests.filter((r) => r.url.pathname === "/youtubei/v1/player");

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "vidrows-platform-access-"));
    platform = await startLocalServer((request, response) => {
      if (request.url.pathname === "/youtubei/v1/player") {
        const body = captionFixture("youtube/player-auto-only.json").replaceAll(
          "https://www.youtube.com",
          platform.origin,
        );
        response.writeHead(200, { "content-type": "application/json" }).end(body);
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end(captionFixture("auto.en.json3"));
      }
    });
  });
  afterAll(async () => {
    await platform.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => {
    platform.requests.length = 0;
  });

  describe("a pool of proxies", () => {
    let first: LocalProxy;
    let second: LocalProxy;
    beforeAll(async () => {
      first = await startLocalProxy();
      second = await startLocalProxy();
    });
    afterAll(async () => {
      await first.close();
      await second.close();
    });

    it("sends each attempt through the next proxy, over a new connection", async () => {
      const source = createCaptionSource("youtube", {
        youtubeBaseUrl: platform.origin,
        access: new PlatformAccess({
          proxies: parseProxySetting(`${first.url}, ${second.url}`),
          egress: loopbackGuard(),
        }),
      });
      // The platform is http:// here, so each request reaches the proxy as a plain one in absolute form.
      const sent = (proxy: LocalProxy) => proxy.tunnels.length + proxy.forwarded.length;
      // Which proxy each attempt went through, and how many requests it sent there.
      const opened: Array<[string, number]> = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const before = [sent(first), sent(second)] as const;
        await source.fetchTranscript(videoId);
        const grew = [sent(first) - before[0], sent(second) - before[1]];
        opened.push(
          grew[1] === 0 ? ["first", grew[0] ?? 0] : grew[0] === 0 ? ["second", grew[1] ?? 0] : ["both", 0],
        );
      }
      await source.close?.();
      expect(opened.map(([proxy]) => proxy)).toEqual(["first", "second", "first", "second"]);
      for (const [, requests] of opened) expect(requests).toBeGreaterThan(0);
      expect([...first.tunnels, ...second.tunnels]).toEqual([]);
      const origins = [...first.forwarded, ...second.forwarded].map(
        (line) => new URL(line.split(" ")[1]!).origin,
      );
      expect(new Set(origins)).toEqual(new Set([platform.origin]));
      expect(playerRequests()).toHaveLength(4);
    });
  });

  it("reaches the platform through a SOCKS5 proxy", async () => {
    const socks = await startLocalSocksProxy();
    const source = new YouTubeCaptionSource({
      baseUrl: platform.origin,
      proxy: socks.url,
      egress: loopbackGuard(),
    });
    try {
      const transcript = await source.fetchTranscript(videoId);
      expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
      expect(socks.connections.length).toBeGreaterThan(0);
      expect(new Set(socks.connections)).toEqual(new Set([platform.origin.replace("http://", "")]));
    } finally {
      await source.close();
      await socks.close();
    }
  });

  it("says captions_unavailable when the SOCKS5 proxy is down", async () => {
    const socks = await startLocalSocksProxy();
    await socks.close();
    const source = new YouTubeCaptionSource({
      baseUrl: platform.origin,
      proxy: socks.url,
      timeoutMs: 5000,
      egress: loopbackGuard(),
    });
    const error = await source.fetchTranscript(videoId).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: "captions_unavailable" });
    expect(platform.requests).toHaveLength(0);
  });

  it("sends the cookies of VIDROWS_YOUTUBE_COOKIES for the platform's host, read again at each attempt", async () => {
    const cookies = join(folder, "cookies.txt");
    const host = new URL(platform.origin).hostname;
    writeFileSync(
      cookies,
      `# Netscape HTTP Cookie File\n${host}\tFALSE\t/\tFALSE\t0\tVISITOR_INFO1_LIVE\tfirst\n`,
    );
    const source = new YouTubeCaptionSource({
      baseUrl: platform.origin,
      access: new PlatformAccess({ cookiesFile: cookies, egress: loopbackGuard() }),
    });
    await source.fetchTranscript(videoId);
    expect(platform.requests.map((r) => r.headers.cookie)).toEqual([
      "VISITOR_INFO1_LIVE=first",
      "VISITOR_INFO1_LIVE=first",
    ]);
    writeFileSync(cookies, `${host}\tFALSE\t/\tFALSE\t0\tVISITOR_INFO1_LIVE\tsecond\n`);
    platform.requests.length = 0;
    await source.fetchTranscript(videoId);
    expect(playerRequests()[0]?.headers.cookie).toBe("VISITOR_INFO1_LIVE=second");
  });
});

describe("Netscape cookies files", () => {
  const file = [
    "# Netscape HTTP Cookie File",
    ".youtube.com\tTRUE\t/\tTRUE\t0\tSOCS\tCAI",
    "#HttpOnly_.youtube.com\tTRUE\t/\tTRUE\t4102444800\tLOGIN_INFO\tsecret",
    ".youtube.com\tTRUE\t/\tTRUE\t1000\tEXPIRED\tx",
    "accounts.google.com\tFALSE\t/\tTRUE\t0\tOTHER\ty",
    "",
  ].join("\n");

  it("gives a request the unexpired cookies of its host and parent domains, HttpOnly ones included", () => {
    const cookies = parseNetscapeCookies(file);
    expect(cookieHeader(cookies, new URL("https://www.youtube.com/youtubei/v1/player"))).toBe(
      "SOCS=CAI; LOGIN_INFO=secret",
    );
    // Secure cookies never go over plain HTTP, and another site's never go at all.
    expect(cookieHeader(cookies, new URL("http://www.youtube.com/"))).toBeNull();
    expect(cookieHeader(cookies, new URL("https://example.com/"))).toBeNull();
  });

  it("refuses what is not one (a JSON export, a header copied from a browser, nothing)", () => {
    for (const text of [
      '[{"name":"SOCS","value":"CAI"}]',
      "SOCS=CAI; LOGIN_INFO=secret",
      "# only a comment\n",
    ]) {
      expect(() => parseNetscapeCookies(text), text).toThrow();
    }
  });

  it("is checked at start-up by VIDROWS_YOUTUBE_COOKIES, which names itself when it is bad", () => {
    const folder = mkdtempSync(join(tmpdir(), "vidrows-cookies-setting-"));
    try {
      const good = join(folder, "good.txt");
      const bad = join(folder, "bad.txt");
      writeFileSync(good, file);
      writeFileSync(bad, "SOCS=CAI");
      expect(loadConfig({ VIDROWS_YOUTUBE_COOKIES: good }).captionsAccess).toMatchObject({
        youtubeCookiesFile: good,
      });
      for (const path of [bad, join(folder, "missing.txt")]) {
        const attempt = () => loadConfig({ VIDROWS_YOUTUBE_COOKIES: path });
        expect(attempt, path).toThrow(ConfigError);
        expect(attempt, path).toThrow(/^VIDROWS_YOUTUBE_COOKIES /);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("The pace of requests (VIDROWS_YOUTUBE_MIN_INTERVAL_MS)", () => {
  /**
   * A clock that moves only by the waits it is asked for (plus `late` ms each, a timer that fires late),
   * remembering each wait and the moment each request left.
   */
  function manualClock(late = 0): PacingClock & { waits: number[]; left: number[]; at: number } {
    const clock = {
      at: 1_000_000,
      waits: [] as number[],
      left: [] as number[],
      now: () => clock.at,
      sleep: async (ms: number) => {
        clock.waits.push(ms);
        clock.at += ms + late;
      },
    };
    return clock;
  }
  const send = (pacing: RequestPacing, clock: { left: number[]; at: number }, signal?: AbortSignal) =>
    pacing.paced(signal, () => clock.left.push(clock.at));

  it("spaces requests by the interval, queueing those that come together", async () => {
    const clock = manualClock();
    const pacing = new RequestPacing(500, clock);
    await Promise.all([send(pacing, clock), send(pacing, clock), send(pacing, clock)]);
    expect(clock.waits).toEqual([500, 500]);
    expect(clock.left).toEqual([1_000_000, 1_000_500, 1_001_000]);
    // Long after, no wait at all.
    clock.at += 10_000;
    await send(pacing, clock);
    expect(clock.waits).toEqual([500, 500]);
  });

  it("counts from when the one before actually left, however late its timer fired", async () => {
    const clock = manualClock(70);
    const pacing = new RequestPacing(500, clock);
    await Promise.all([send(pacing, clock), send(pacing, clock), send(pacing, clock)]);
    expect(clock.left).toEqual([1_000_000, 1_000_570, 1_001_140]);
  });

  it("sends nothing for a request aborted while it waits, and the next waits only for those before", async () => {
    const clock = manualClock();
    const pacing = new RequestPacing(500, clock);
    const stopped = new AbortController();
    stopped.abort(new Error("the caller left"));
    const outcomes = await Promise.allSettled([
      send(pacing, clock),
      send(pacing, clock, stopped.signal),
      send(pacing, clock),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(clock.left).toEqual([1_000_000, 1_000_500]);
  });

  it("never waits without an interval", async () => {
    const clock = manualClock();
    const pacing = new RequestPacing(0, clock);
    await Promise.all([send(pacing, clock), send(pacing, clock)]);
    expect(clock.waits).toEqual([]);
  });

  it("is read at start-up, from 0 to 600000 ms", () => {
    expect(loadConfig({}).captionsAccess?.youtubeMinIntervalMs).toBe(0);
    expect(loadConfig({ VIDROWS_YOUTUBE_MIN_INTERVAL_MS: "1500" }).captionsAccess?.youtubeMinIntervalMs).toBe(
      1500,
    );
    for (const bad of ["-1", "600001", "1.5", "soon"]) {
      expect(() => loadConfig({ VIDROWS_YOUTUBE_MIN_INTERVAL_MS: bad }), bad).toThrow(
        /^VIDROWS_YOUTUBE_MIN_INTERVAL_MS must be an integer from 0 to 600000/,
      );
    }
  });

  it("hands the pool's next proxy to whichever source asks next", () => {
    const pool = new ProxyPool(["http://a:1", "http://b:2"]);
    expect([pool.next(), pool.next(), pool.next()]).toEqual(["http://a:1", "http://b:2", "http://a:1"]);
    expect(new ProxyPool().next()).toBeUndefined();
  });
});
