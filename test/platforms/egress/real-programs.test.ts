// The real yt-dlp and ffmpeg through the egress guard, as vidrows runs them (its proxy handed to them, its
// environment only): pages that redirect, refresh or point a caption track inside, and media that leads
// inside, never reach the loopback canary. Without yt-dlp or ffmpeg on PATH their tests are skipped, and say so.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AllowedNetworks } from "../../../src/domain/network-addresses.js";
import { childEnvironment } from "../../../src/platforms/egress/child-environment.js";
import { EgressGuard } from "../../../src/platforms/egress/egress-guard.js";
import type { EgressSession } from "../../../src/platforms/egress/egress-session.js";
import { type Canary, publicAddress, type PublicPage, startCanary, startPublicPage } from "./canary.js";

function onPath(name: string): string | null {
  for (const folder of (process.env.PATH ?? "").split(":")) {
    const candidate = join(folder, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

const ytDlp = onPath("yt-dlp");
const ffmpeg = onPath("ffmpeg");
for (const [name, path] of [
  ["yt-dlp", ytDlp],
  ["ffmpeg", ffmpeg],
] as const) {
  if (path === null)
    console.warn(`test/platforms/egress/real-programs.test.ts: ${name} tests skipped, no ${name} on PATH.`);
}

let canary: Canary;
let page: PublicPage;
let folder: string;
const guard = new EgressGuard({
  allowed: new AllowedNetworks([publicAddress]),
  resolve: async (hostname) =>
    hostname === "video.example.com"
      ? [{ address: publicAddress, family: 4 }]
      : [{ address: "127.0.0.1", family: 4 }],
});
let session: EgressSession;

const inside = () => `http://inside.example.com:${canary.port}`;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "vidrows-egress-programs-"));
  canary = await startCanary();
  page = await startPublicPage((path) => {
    const html = (body: string) => ({ status: 200, headers: { "content-type": "text/html" }, body });
    if (path === "/refresh") {
      return html(
        `<html><head><meta http-equiv="refresh" content="0; url=${inside()}/secret"></head></html>`,
      );
    }
    if (path === "/track") {
      return html(
        `<html><body><video controls><source src="/clip.mp4" type="video/mp4">` +
          `<track kind="captions" srclang="en" src="${inside()}/captions.vtt"></video></body></html>`,
      );
    }
    if (path === "/clip.mp4") return { status: 200, headers: { "content-type": "video/mp4" }, body: "" };
    return null;
  });
});

// A session per test, so that each test's refusal is its own.
beforeEach(async () => {
  session = await guard.open();
});

afterEach(async () => {
  await session.close();
  expect(canary.hits).toEqual([]);
});

afterAll(async () => {
  await canary.close();
  await page.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Runs a program as vidrows does: no shell, the child environment, the session's proxy. */
function run(executable: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(executable, args, {
      env: childEnvironment(process.env, session.proxyUrl),
      cwd: folder,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, output }));
  });
}

const pageUrl = (path: string) => `http://video.example.com:${page.port}${path}`;

describe.skipIf(ytDlp === null)("the real yt-dlp through the guard", () => {
  const ytDlpRun = (url: string, extra: string[] = []) =>
    run(ytDlp ?? "", [
      "--proxy",
      session.proxyUrl,
      "--dump-single-json",
      "--no-playlist",
      ...extra,
      "--",
      url,
    ]);

  for (const status of [301, 302, 303, 307, 308]) {
    it(`refuses a ${status} redirect into loopback`, async () => {
      const to = encodeURIComponent(`${inside()}/secret`);
      const { code } = await ytDlpRun(pageUrl(`/redirect-${status}?to=${to}`));
      expect(code).not.toBe(0);
      expect(session.refused).toBe(true);
    });
  }

  it("refuses a meta refresh into loopback", async () => {
    const { code, output } = await ytDlpRun(pageUrl("/refresh"));
    expect(code).not.toBe(0);
    expect(output).not.toContain("INTERNALSECRET");
    expect(session.refused).toBe(true);
  });

  it("refuses a caption track inside, while reading the public page", async () => {
    // The page's info first printed (--dump-single-json), then the subtitles written as vidrows' second run does.
    const { output } = await ytDlpRun(pageUrl("/track"), [
      "--no-simulate",
      "--skip-download",
      "--write-subs",
      "--sub-langs",
      "en",
    ]);
    expect(output).not.toContain("INTERNALSECRET");
    expect(page.paths).toContain("/track");
    expect(session.refused).toBe(true);
  });

  it("refuses a literal loopback address, IPv4-mapped IPv6 and a name with a final dot", async () => {
    for (const url of [
      `http://127.0.0.1:${canary.port}/secret`,
      `http://[::ffff:127.0.0.1]:${canary.port}/secret`,
      `http://inside.example.com.:${canary.port}/secret`,
    ]) {
      const { code } = await ytDlpRun(url);
      expect(code, url).not.toBe(0);
      expect(session.refusedAddresses.length, url).toBeGreaterThan(0);
    }
  });
});

describe.skipIf(ffmpeg === null)("the real ffmpeg through the guard", () => {
  it("refuses media inside, given by URL", async () => {
    const { code } = await run(ffmpeg ?? "", [
      "-nostdin",
      "-hide_banner",
      "-i",
      `${inside()}/a.mp3`,
      "-f",
      "null",
      "-",
    ]);
    expect(code).not.toBe(0);
    expect(session.refused).toBe(true);
  });

  it("reaches nothing inside from a downloaded file that is a playlist in disguise", async () => {
    const disguised = join(folder, "audio.m4a");
    writeFileSync(
      disguised,
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${inside()}/segment.ts\n#EXT-X-ENDLIST\n`,
    );
    const { code } = await run(ffmpeg ?? "", [
      "-nostdin",
      "-hide_banner",
      "-i",
      disguised,
      "-f",
      "null",
      "-",
    ]);
    expect(code).not.toBe(0);
  });
});
