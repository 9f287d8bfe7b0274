// Audio downloads bounded while they run, through the real yt-dlp (as speech-to-text runs it: through the
// platform access and its egress guard) against a real local server standing for a hostile page: an endless
// chunked body with no Content-Length, a Content-Length past the bound, a page claiming ten hours, and a
// trickle that never ends. Each fails video_unavailable (final: not tried again) with a message naming the
// bound, after one download at most, its yt-dlp killed, its folder removed, nothing sent to transcription
// (the pipeline settles such a failure free: test/pipeline/processed-length.test.ts). Pages are read over
// http:// here, which a job refuses: yt-dlp trusts only the system's certificates, so a local https://
// page cannot stand in. Without yt-dlp on PATH the suite is skipped, and says so.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AudioLimits,
  audioBytesBound,
  BoundExceeded,
  lengthBound,
} from "../../src/domain/media-bounds.js";
import { AllowedNetworks } from "../../src/domain/network-addresses.js";
import { EgressGuard } from "../../src/platforms/egress/egress-guard.js";
import { locateProgram } from "../../src/platforms/executables.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { YtDlpAudioSource } from "../../src/transcription/audio-download.js";
import { SpeechToText } from "../../src/transcription/speech-to-text.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

const ytDlp = locateProgram("yt-dlp", undefined);
if (ytDlp === null) {
  console.warn(
    "test/transcription/bounded-downloads.test.ts skipped: no yt-dlp on PATH (apt-get install yt-dlp).",
  );
}

/** The address hostile pages stand on, opened to the egress guard on purpose (loopback, not 127.0.0.1). */
const pageAddress = "127.0.0.2";
/** How long a download may run in this suite (the trickle runs into it). */
const downloadTimeoutSeconds = 20;

interface HostilePages {
  readonly port: number;
  /**
   * GETs of each media path. yt-dlp's generic extractor asks for a media URL once to read its type, then
   * downloads it: one attempt is two GETs at most, a retry two more.
   */
  readonly mediaGets: Map<string, number>;
  close(): Promise<void>;
}

/** Writes `chunk` every `everyMs` until the client goes away. */
function stream(response: ServerResponse, chunk: Buffer, everyMs: number): void {
  const timer = setInterval(() => response.write(chunk), everyMs);
  response.on("close", () => clearInterval(timer));
}

async function startHostilePages(): Promise<HostilePages> {
  const mediaGets = new Map<string, number>();
  let port = 0;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://page").pathname;
    const page = /^\/page\/(\w+)(?:\/(PT\w+))?$/.exec(path);
    if (page !== null) {
      const ld = {
        "@context": "https://schema.org",
        "@type": "VideoObject",
        name: page[1],
        description: "a page",
        uploadDate: "2024-01-01",
        thumbnailUrl: `http://${pageAddress}:${port}/thumb.jpg`,
        contentUrl: `http://${pageAddress}:${port}/${page[1]}.mp3`,
        ...(page[2] === undefined ? {} : { duration: page[2] }),
      };
      response.writeHead(200, { "content-type": "text/html" });
      response.end(
        `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`,
      );
      return;
    }
    if (request.method === "GET") mediaGets.set(path, (mediaGets.get(path) ?? 0) + 1);
    if (path === "/endless.mp3") {
      // Chunked, no Content-Length: nothing for --max-filesize to read.
      response.writeHead(200, { "content-type": "audio/mpeg" });
      stream(response, Buffer.alloc(64 * 1024, 0xff), 10);
    } else if (path === "/announced.mp3") {
      response.writeHead(200, { "content-type": "audio/mpeg", "content-length": String(500_000_000) });
      stream(response, Buffer.alloc(1024, 0xff), 50);
    } else if (path === "/trickle.mp3") {
      response.writeHead(200, { "content-type": "audio/mpeg" });
      stream(response, Buffer.alloc(512, 0xff), 200);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, pageAddress, resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    mediaGets,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The processes whose command line names `folder` (Linux's /proc; none where there is none). */
function processesNaming(folder: string): number[] {
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(folder);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The tiny plan's one minute at 8 kbit/s: 1.1 MB, for a workspace that can pay for it. */
const limits: AudioLimits = {
  length: lengthBound(1, { balance: 10_000, usedThisCycle: 0, hardCap: null }, 2),
  kilobitsPerSecond: 8,
  maxBytes: audioBytesBound(60, 8),
};

describe.skipIf(ytDlp === null)("audio downloads bounded while they run (the real yt-dlp)", () => {
  let pages: HostilePages;
  let tempRoot: string;
  let speech: SpeechToText;
  let transcriptions = 0;

  beforeAll(async () => {
    tempRoot = mkdtempSync(join(tmpdir(), "vidrows-bounded-root-"));
    pages = await startHostilePages();
    const access = new PlatformAccess({
      egress: new EgressGuard({ allowed: new AllowedNetworks([pageAddress]) }),
    });
    speech = new SpeechToText({
      audio: new YtDlpAudioSource({
        executable: ytDlp ?? "",
        access,
        timeoutMs: downloadTimeoutSeconds * 1000,
        watchIntervalMs: 100,
      }),
      transcriber: {
        transcribe: async () => {
          transcriptions++;
          return { segments: [], timed: true };
        },
      },
      maxUploadBytes: 25_000_000,
      tempRoot,
      attempts: 3,
      retryBaseMs: 10,
    });
  });

  afterAll(async () => {
    await pages?.close();
    if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
  });

  /** The failure of transcribing the page at `path`, once nothing of its download is left. */
  async function failure(path: string): Promise<BoundExceeded> {
    const url = `http://${pageAddress}:${pages.port}${path}`;
    const error = await speech.transcribe(url, path, undefined, limits).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BoundExceeded);
    const bound = error as BoundExceeded;
    expect({ code: bound.code, retryable: bound.retryable }).toEqual({
      code: "video_unavailable",
      retryable: false,
    });
    await waitUntil(
      "no program naming the audio folders",
      () => processesNaming(tempRoot).length === 0,
      workWaitMs,
    );
    expect(readdirSync(tempRoot)).toEqual([]);
    expect(transcriptions).toBe(0);
    return bound;
  }

  it("stops an endless chunked body at the audio bound, once, and kills its yt-dlp", async () => {
    const { message } = await failure("/page/endless/PT30S");
    expect(message).toContain("The audio download grew larger than 1.1 MB");
    expect(message).toContain("8 kbit/s");
    expect(pages.mediaGets.get("/endless.mp3")).toBeLessThanOrEqual(2);
  });

  it("refuses a file the server announces past the bound, before its body is written", async () => {
    const { message } = await failure("/page/announced");
    expect(message).toContain("announced audio larger than 1.1 MB");
    expect(pages.mediaGets.get("/announced.mp3")).toBeLessThanOrEqual(2);
  });

  it("refuses a page claiming ten hours before any of its media is asked for", async () => {
    const before = pages.mediaGets.get("/endless.mp3") ?? 0;
    const { message } = await failure("/page/endless/PT10H");
    expect(message).toContain("a length past the plan's longest video (1 minute)");
    // At most the extractor's look at the media: no download.
    expect((pages.mediaGets.get("/endless.mp3") ?? 0) - before).toBeLessThanOrEqual(1);
  });

  it("fails a trickle still running at the deadline for good, not three attempts of it", async () => {
    const { message } = await failure("/page/trickle");
    expect(message).toContain(`still running after ${downloadTimeoutSeconds} s`);
    expect(message).toContain("VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS");
    expect(pages.mediaGets.get("/trickle.mp3")).toBeLessThanOrEqual(2);
  });
});
