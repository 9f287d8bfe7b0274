// Schemes the egress guard cannot see: yt-dlp hands an rtsp:// (or rtmp://, mms://) format or caption
// entry to another program (mpv, mplayer, rtmpdump, ffmpeg), which connects to the page's address without
// any proxy. A stand-in mpv on the search path does what the real one would (it connects to the address
// it is given), and the loopback canary must hear no connection: such a format is never chosen, and the
// caption run fetches only the track vidrows checked.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { YtDlpPageSource } from "../../../src/captions/ytdlp-page-source.js";
import { AllowedNetworks } from "../../../src/domain/network-addresses.js";
import { EgressGuard } from "../../../src/platforms/egress/egress-guard.js";
import { locateProgram } from "../../../src/platforms/executables.js";
import { PlatformAccess } from "../../../src/platforms/platform-access.js";
import { YtDlpAudioSource } from "../../../src/transcription/audio-download.js";
import { createFakeExecutable, type FakeExecutable } from "../../support/fake-executable.js";
import { type Canary, publicAddress, type PublicPage, startCanary, startPublicPage } from "./canary.js";

const ytDlp = locateProgram("yt-dlp", undefined);
if (ytDlp === null) console.warn("test/platforms/egress/other-schemes.test.ts: skipped, no yt-dlp on PATH.");

/** mpv as yt-dlp finds it: answers `-h`, and otherwise connects to the host and port of the URL it is given. */
const connectingPlayer = `
const args = process.argv.slice(2);
if (args.includes("-h")) process.exit(0);
const target = new URL(args[args.length - 1]);
const socket = require("node:net").connect(Number(target.port), target.hostname.replace(/^\\[|\\]$/g, ""));
socket.on("connect", () => socket.end("OPTIONS " + target.href + " RTSP/1.0\\r\\n\\r\\n", () => process.exit(1)));
socket.on("error", () => process.exit(1));
`;

let canary: Canary;
let page: PublicPage;
let player: FakeExecutable;
let folder: string;
const savedPath = process.env.PATH;
const origin = () => `http://video.example.com:${page.port}`;
const inside = (path: string) => `rtsp://127.0.0.1:${canary.port}${path}`;

const access = () =>
  new PlatformAccess({
    egress: new EgressGuard({
      allowed: new AllowedNetworks([publicAddress]),
      resolve: async () => [{ address: publicAddress, family: 4 }],
    }),
  });

beforeAll(async () => {
  canary = await startCanary();
  page = await startPublicPage((path) => {
    const html = (body: string) => ({ status: 200, headers: { "content-type": "text/html" }, body });
    if (path === "/two-tracks") {
      // Two English tracks: the first on the page's own server, the last (the one yt-dlp would take) inside.
      return html(
        `<html><body><video src="${origin()}/v.mp4">` +
          `<track kind="captions" srclang="en" src="${origin()}/ok.vtt">` +
          `<track kind="captions" srclang="en" src="${inside("/secret.vtt")}">` +
          `</video></body></html>`,
      );
    }
    if (path === "/ok.vtt") {
      return { status: 200, body: "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nhello from the public track\n" };
    }
    if (path === "/stream-only") {
      return html(`<html><body><video><source src="${inside("/secret.mp4")}"></video></body></html>`);
    }
    return null;
  });
  player = createFakeExecutable("vidrows-fake-mpv-", connectingPlayer, "mpv");
  process.env.PATH = `${player.folder}:${savedPath ?? ""}`;
  folder = mkdtempSync(join(tmpdir(), "vidrows-other-schemes-"));
});

afterAll(async () => {
  process.env.PATH = savedPath;
  expect(canary.connections).toEqual([]);
  await canary.close();
  await page.close();
  player.remove();
  rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(ytDlp === null)("formats and tracks of schemes the guard cannot see", () => {
  it("reads the caption track vidrows checked, never the page's rtsp:// one of the same language", async () => {
    const source = new YtDlpPageSource({ executable: ytDlp ?? "", access: access() });
    const read = await source.read(`${origin()}/two-tracks`, "url:0123456789abcdef");
    expect(read.transcript?.cues.map((cue) => cue.text)).toEqual(["hello from the public track"]);
    expect(canary.connections).toEqual([]);
  });

  it("never downloads an rtsp:// format: the video has no audio vidrows can fetch", async () => {
    const audio = new YtDlpAudioSource({ executable: ytDlp ?? "", access: access() });
    const failure = await audio
      .download(`${origin()}/stream-only`, "url:0123456789abcdef", folder, undefined)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(canary.connections).toEqual([]);
  });
});
