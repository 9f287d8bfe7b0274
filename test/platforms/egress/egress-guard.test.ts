// The egress guard through a real client: every redirect hop, name and address form checked at connect
// time, a loopback canary that must never be reached, and the operator's proxies chained behind it.
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { fetch } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AllowedNetworks } from "../../../src/domain/network-addresses.js";
import { EgressGuard } from "../../../src/platforms/egress/egress-guard.js";
import type { EgressSession } from "../../../src/platforms/egress/egress-session.js";
import type { ResolveName } from "../../../src/platforms/egress/egress-target.js";
import { startLocalProxy, startLocalSocksProxy } from "../../captions/local-servers.js";
import { type Canary, publicAddress, type PublicPage, startCanary, startPublicPage } from "./canary.js";

/** A resolver of the test's own: public-looking names that lead to the canary's loopback. */
const names: Record<string, string[]> = {
  "video.example.com": [publicAddress],
  "sneaky.example.com": ["127.0.0.1"],
  "metadata.example.com": ["169.254.169.254"],
  "private.example.com": ["10.1.2.3"],
  "six.example.com": ["::1"],
  "mapped.example.com": ["::ffff:127.0.0.1"],
  "both.example.com": [publicAddress, "127.0.0.1"],
};
const resolve: ResolveName = async (hostname) => {
  const found = names[hostname];
  if (found === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

let canary: Canary;
let page: PublicPage;
let pagePort: number;
const guard = new EgressGuard({ allowed: new AllowedNetworks([publicAddress]), resolve });
const sessions: EgressSession[] = [];

async function session(upstream?: string): Promise<EgressSession> {
  const opened = await guard.open(upstream);
  sessions.push(opened);
  return opened;
}

beforeAll(async () => {
  canary = await startCanary();
  page = await startPublicPage();
  pagePort = page.port;
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((opened) => opened.close()));
});

afterAll(async () => {
  await canary.close();
  await page.close();
});

const pageUrl = (path: string) => `http://video.example.com:${pagePort}${path}`;

/** The status a fetch through the session ends with, or "failed" when undici saw the tunnel refused. */
async function statusThrough(opened: EgressSession, url: string): Promise<number | "failed"> {
  try {
    const answer = await fetch(url, { dispatcher: opened.dispatcher() });
    await answer.body?.cancel();
    return answer.status;
  } catch {
    return "failed";
  }
}

describe("the egress guard, through undici", () => {
  it("forwards a request to a public name, to the address it checked", async () => {
    const opened = await session();
    const answer = await fetch(pageUrl("/watch"), { dispatcher: opened.dispatcher() });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("a public page");
    expect(opened.refused).toBe(false);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`refuses a ${status} redirect hop to loopback, and the canary hears nothing`, async () => {
      const opened = await session();
      for (const target of [
        canary.url("127.0.0.1", "/secret"),
        `http://sneaky.example.com:${canary.port}/secret`,
        `http://[::ffff:127.0.0.1]:${canary.port}/secret`,
      ]) {
        const url = pageUrl(`/redirect-${status}?to=${encodeURIComponent(target)}`);
        expect(await statusThrough(opened, url), target).toBe(403);
      }
      expect(opened.refused).toBe(true);
      expect(canary.hits).toEqual([]);
    });
  }

  it("refuses names resolving to loopback, private, metadata, IPv6 and IPv4-mapped addresses", async () => {
    for (const host of [
      "sneaky.example.com",
      "private.example.com",
      "metadata.example.com",
      "six.example.com",
      "mapped.example.com",
      "both.example.com",
      "127.0.0.1",
      "[::1]",
      "[::ffff:7f00:1]",
      "[64:ff9b::7f00:1]",
    ]) {
      const opened = await session();
      expect(await statusThrough(opened, `http://${host}:${canary.port}/secret`), host).toBe(403);
      expect(opened.refused, host).toBe(true);
    }
    expect(canary.hits).toEqual([]);
  });

  it("forwards plain HTTP in absolute form, as yt-dlp and ffmpeg send it, and refuses it alike", async () => {
    const opened = await session();
    const proxy = new URL(opened.proxyUrl);
    const viaProxy = (target: string) =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        const request = httpRequest({ host: proxy.hostname, port: proxy.port, path: target }, (answer) => {
          let body = "";
          answer.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
          answer.on("end", () => done({ status: answer.statusCode ?? 0, body }));
        });
        request.on("error", fail).end();
      });
    expect(await viaProxy(pageUrl("/watch"))).toEqual({ status: 200, body: "a public page" });
    const refused = await viaProxy(`http://sneaky.example.com:${canary.port}/secret`);
    expect(refused.status).toBe(403);
    expect(refused.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(canary.hits).toEqual([]);
  });
});

describe("the operator's proxies behind the guard", () => {
  it("refuses a literal internal address and a name resolving inside, even through an http proxy", async () => {
    const upstream = await startLocalProxy();
    try {
      const opened = await session(upstream.url);
      for (const target of [canary.url("127.0.0.1", "/"), `http://sneaky.example.com:${canary.port}/`]) {
        expect(await statusThrough(opened, target), target).toBe(403);
        expect(await statusThrough(opened, target.replace("http:", "https:")), target).toBe("failed");
      }
      expect(opened.refused).toBe(true);
      expect(upstream.tunnels).toEqual([]);
      expect(upstream.forwarded).toEqual([]);
      // A checked public name goes to the proxy by name, plain http as a plain request in absolute form (not
      // a tunnel to port 80, which proxies commonly refuse); a name only the proxy knows is left to it (this
      // proxy cannot resolve it either, so that fetch fails there).
      // (This proxy resolves none of the test's names: a name's request fails there, a checked address's is
      // answered.)
      expect(await statusThrough(opened, pageUrl("/watch"))).toBe(502);
      expect(await statusThrough(opened, "http://only-the-proxy-knows.test/")).toBe(502);
      const byAddress = `http://${publicAddress}:${pagePort}/watch?through=proxy`;
      expect(await statusThrough(opened, byAddress)).toBe(200);
      expect(upstream.forwarded).toEqual([
        `GET ${pageUrl("/watch")}`,
        "GET http://only-the-proxy-knows.test/",
        `GET ${byAddress}`,
      ]);
      expect(upstream.tunnels).toEqual([]);
      // https still goes as a tunnel.
      await statusThrough(opened, `https://video.example.com:${pagePort}/`);
      expect(upstream.tunnels).toEqual([`video.example.com:${pagePort}`]);
      expect(canary.hits).toEqual([]);
    } finally {
      await upstream.close();
    }
  });

  it("chains a SOCKS5 proxy the same way", async () => {
    const upstream = await startLocalSocksProxy();
    try {
      const opened = await session(upstream.url);
      expect(await statusThrough(opened, `http://[::1]:${canary.port}/`)).toBe(403);
      expect(opened.refused).toBe(true);
      const answer = await fetch(`http://${publicAddress}:${pagePort}/watch`, {
        dispatcher: opened.dispatcher(),
      });
      expect(await answer.text()).toBe("a public page");
      expect(upstream.connections).toEqual([`${publicAddress}:${pagePort}`]);
      expect(canary.hits).toEqual([]);
    } finally {
      await upstream.close();
    }
  });
});

/** A raw connection to the session's port, resolved once it is open. */
function rawConnection(proxyUrl: string): Promise<Socket> {
  const { port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Resolves when the guard has closed the socket (read to its end, so that the close is seen). */
const closed = (socket: Socket) =>
  new Promise<void>((resolve) => socket.once("close", () => resolve()).resume());

describe("the guard's bounds", () => {
  it("closes connections past the process's bound at once", async () => {
    const bounded = new EgressGuard({ resolve, maxConnections: 2 });
    const opened = await bounded.open();
    try {
      const kept = [await rawConnection(opened.proxyUrl), await rawConnection(opened.proxyUrl)];
      const third = await rawConnection(opened.proxyUrl);
      await closed(third);
      expect(bounded.connectionsInUse).toBe(2);
      for (const socket of kept) expect(socket.destroyed).toBe(false);
      kept.forEach((socket) => socket.destroy());
    } finally {
      await opened.close();
    }
  });

  it("answers headers past the bound with 400 and closes", async () => {
    const opened = await session();
    const socket = await rawConnection(opened.proxyUrl);
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.write(`GET ${pageUrl("/long")} HTTP/1.1\r\nHost: x\r\nX-Long: ${"a".repeat(40 * 1024)}\r\n\r\n`);
    await closed(socket);
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/);
    expect(page.paths).not.toContain("/long");
  });

  it("closes a tunnel that stays silent past the idle time", async () => {
    const idle = new EgressGuard({
      resolve,
      allowed: new AllowedNetworks([publicAddress]),
      idleTimeoutMs: 200,
    });
    const opened = await idle.open();
    try {
      const socket = await rawConnection(opened.proxyUrl);
      let answer = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
      socket.write(`CONNECT video.example.com:${pagePort} HTTP/1.1\r\nHost: x\r\n\r\n`);
      await closed(socket);
      // The tunnel was opened, then closed for its silence (not refused).
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await opened.close();
    }
  });
});
