// The egress guard wired into the one program runner: every yt-dlp run leaves through a session of it (the
// operator's proxy chained behind), a run led to an address vidrows does not reach fails the video
// video_unavailable without copying a network error, a listing so led is a 400, and yt-dlp's environment
// holds none of vidrows' secrets. A loopback canary must hear nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fetch, ProxyAgent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { YtDlpPageSource } from "../../../src/captions/ytdlp-page-source.js";
import { AllowedNetworks } from "../../../src/domain/network-addresses.js";
import { ApiError } from "../../../src/http/api-errors.js";
import { VideoListings } from "../../../src/listings/video-listings.js";
import { EgressGuard } from "../../../src/platforms/egress/egress-guard.js";
import { PlatformAccess } from "../../../src/platforms/platform-access.js";
import { PlatformError } from "../../../src/platforms/platform-error.js";
import { findProgram } from "../../../src/platforms/executables.js";
import { createFakeExecutable } from "../../support/fake-executable.js";
import { type Canary, publicAddress, type PublicPage, startCanary, startPublicPage } from "./canary.js";

let canary: Canary;
let page: PublicPage;
const guard = () =>
  new EgressGuard({
    allowed: new AllowedNetworks([publicAddress]),
    resolve: async (hostname) =>
      hostname === "video.example.com"
        ? [{ address: publicAddress, family: 4 }]
        : [{ address: "127.0.0.1", family: 4 }],
  });

beforeAll(async () => {
  canary = await startCanary();
  page = await startPublicPage();
});
afterAll(async () => {
  expect(canary.hits).toEqual([]);
  expect(canary.connections).toEqual([]);
  await canary.close();
  await page.close();
});

const inside = () => `http://inside.example.com:${canary.port}/secret`;

function installedYtDlp(): string | null {
  try {
    return findProgram("yt-dlp", undefined, "Test");
  } catch {
    return null;
  }
}
const ytDlp = installedYtDlp();
if (ytDlp === null)
  console.warn("test/platforms/egress/guarded-runs.test.ts: real yt-dlp tests skipped, none on PATH.");

describe.skipIf(ytDlp === null)("a video page read by the real yt-dlp through PlatformAccess", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`fails video_unavailable when the page ${status}-redirects inside, copying no network error`, async () => {
      const source = new YtDlpPageSource({
        executable: ytDlp ?? "",
        access: new PlatformAccess({ egress: guard() }),
      });
      const url = `http://video.example.com:${page.port}/redirect-${status}?to=${encodeURIComponent(inside())}`;
      const failure = await source.read(url, "url:0123456789abcdef").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PlatformError);
      expect((failure as PlatformError).code).toBe("video_unavailable");
      expect((failure as PlatformError).message).toBe(
        "For url:0123456789abcdef, the page leads to an address vidrows does not reach.",
      );
    });
  }
});

describe.skipIf(ytDlp === null)("a page that sends yt-dlp to another scheme", () => {
  // yt-dlp follows a redirect to ftp://; given its proxy as --proxy, releases before 2023.11 then connect
  // to that address themselves. From the environment, ftp:// goes to the guard, which reaches http(s) only.
  for (const [name, target] of [
    ["a name resolving inside", () => `ftp://inside.example.com:${canary.port}/secret.mp4`],
    ["a loopback address", () => `ftp://127.0.0.1:${canary.port}/secret.mp4`],
  ] as const) {
    it(`fails video_unavailable and opens no connection to ftp:// at ${name}`, async () => {
      const source = new YtDlpPageSource({
        executable: ytDlp ?? "",
        access: new PlatformAccess({ egress: guard() }),
      });
      const url = `http://video.example.com:${page.port}/redirect-302?to=${encodeURIComponent(target())}`;
      const failure = await source.read(url, "url:0123456789abcdef").catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: "video_unavailable",
        message: "For url:0123456789abcdef, the page leads to an address vidrows does not reach.",
      });
      expect(canary.connections).toEqual([]);
    });
  }
});

describe("a listing led inside", () => {
  it("is a 400 naming from, and yt-dlp's stand-in reached nothing", async () => {
    // A stand-in for yt-dlp that does what a hostile listing page makes it do: fetch inside, through the
    // proxy it was given.
    const access = new PlatformAccess({
      egress: guard(),
      runner: async (run) => {
        const answer = await fetch(inside(), { dispatcher: new ProxyAgent(run.proxyUrl ?? "") }).catch(
          () => null,
        );
        await answer?.body?.cancel();
        return {
          exitCode: 1,
          stdout: "",
          stderr: "ERROR: [generic] Unable to download webpage: HTTP Error 403",
        };
      },
    });
    const listings = new VideoListings({ ytDlpPath: process.execPath }, access);
    const failure = await listings
      .list("ws_test", "https://www.youtube.com/playlist?list=PLabcdefghijkl", 5)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: "invalid_request", param: "from" });
    expect((failure as ApiError).message).toContain("leads to an address vidrows does not reach");
  });
});

describe("the environment yt-dlp runs with", () => {
  it("holds none of vidrows' secrets, and the guard's session as its proxy", async () => {
    const dumper = createFakeExecutable(
      "vidrows-guarded-env-",
      `require("fs").writeFileSync(require("path").join(__dirname, "env.json"), JSON.stringify({ args: process.argv.slice(2), env: process.env }));`,
    );
    const planted = {
      DATABASE_URL: "postgres://vidrows:database-secret@db/vidrows",
      VIDROWS_LLM_API_KEY: "sk-model-secret",
      VIDROWS_TRANSCRIBE_API_KEY: "sk-transcription-secret",
      OPENAI_API_KEY: "sk-openai-secret",
    };
    const saved = Object.fromEntries(Object.keys(planted).map((name) => [name, process.env[name]]));
    Object.assign(process.env, planted);
    try {
      const access = new PlatformAccess({ egress: guard(), proxies: ["socks5://127.0.0.1:1080"] });
      await access.runYtDlp("example.com", {
        executable: dumper.path,
        args: ["--", "https://example.com/v"],
        timeoutMs: 30_000,
      });
      const seen = JSON.parse(readFileSync(join(dumper.folder, "env.json"), "utf8")) as {
        args: string[];
        env: Record<string, string>;
      };
      const text = JSON.stringify(seen.env);
      for (const secret of Object.values(planted)) expect(text).not.toContain(secret);
      // The session only, in the environment, for every scheme (ftp:// too); no --proxy, not even the operator's.
      expect(seen.args).not.toContain("--proxy");
      const proxy = seen.env.http_proxy;
      expect(proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const name of ["HTTPS_PROXY", "https_proxy", "ftp_proxy", "FTP_PROXY", "all_proxy"]) {
        expect(seen.env[name], name).toBe(proxy);
      }
      expect(seen.env.PATH).toBe(process.env.PATH);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      dumper.remove();
    }
  });
});
