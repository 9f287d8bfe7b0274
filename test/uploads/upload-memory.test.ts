// An upload's body is streamed to its store, never held whole in memory: a real `vidrows serve` takes a
// 512 MiB file on SQLite's folder store and on PostgreSQL's database chunks, and its peak resident memory
// (VmHWM, which only grows) grows by a small part of that. The file is made as it is sent, a WAV header
// and silence, so the test holds no more of it than the server should.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterEach, describe, expect, it } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { killAllChildren, startServerProcess } from "../support/processes.js";
import { useWorkBudgets } from "../support/time-budgets.js";
import { wavHeader } from "../support/wav-header.js";

useWorkBudgets();

const mebibyte = 1024 * 1024;
/** Far more than a streamed upload holds at once, and more than a process would hold unnoticed. */
const largeBodyBytes = 512 * mebibyte;
/**
 * What the server's peak may grow by while taking the large body: under a third of it. A body held whole
 * grows it by the body at least; streamed, the growth is garbage awaiting collection that levels off
 * whatever the size (PostgreSQL's chunks: 85 MiB for 128 MiB, 120 for 320, 115 for 500; the folder 30).
 */
const allowedGrowthBytes = 160 * mebibyte;

/** CD-quality stereo PCM: 192,000 bytes a second, so 512 MiB is about 47 minutes of sound. */
const sampleRate = 48_000;
const channels = 2;
const bytesPerSample = 2;

/** A WAV file of `totalBytes` made a piece at a time: its header, then silence, one MiB piece reused. */
function* wavPieces(totalBytes: number): Generator<Buffer> {
  const header = wavHeader(totalBytes - 44, sampleRate, channels);
  yield header;
  const silence = Buffer.alloc(mebibyte);
  for (let left = totalBytes - header.byteLength; left > 0; left -= silence.byteLength) {
    yield left >= silence.byteLength ? silence : silence.subarray(0, left);
  }
}

/** The process's peak resident memory so far, in bytes, from the kernel's own count. */
function peakResidentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(line[1]) * 1024;
}

/** POSTs a generated WAV of `totalBytes` to /v1/uploads, backpressure and all; answers status and body. */
async function uploadWav(baseUrl: string, key: string, totalBytes: number) {
  const url = new URL("/v1/uploads", baseUrl);
  const sending = request(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "audio/wav",
      "content-length": String(totalBytes),
    },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    sending.once("error", reject);
    sending.once("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.once("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.once("error", reject);
    });
  });
  await pipeline(Readable.from(wavPieces(totalBytes)), sending);
  return answered;
}

const postgres = dialects.find((d) => d.name === "postgres")!;
const cases = [
  { dialect: dialects.find((d) => d.name === "sqlite")!, store: "the folder store" },
  { dialect: postgres, store: "the database's chunks" },
];

describe.skipIf(ffmpegMissing() !== null)("an upload's body in the server's memory", () => {
  let database: FreshDatabase | undefined;
  let folder: string | undefined;

  afterEach(async () => {
    await killAllChildren();
    await database?.drop();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  for (const { dialect, store } of cases) {
    it.skipIf(dialect.skipReason !== null)(
      `${dialectTitle(dialect)}: takes ${largeBodyBytes / mebibyte} MiB into ${store} with its peak memory growing by a small part of it`,
      async () => {
        database = await freshDatabase(dialect.name);
        folder = mkdtempSync(join(tmpdir(), "vidrows-upload-memory-"));
        const plans = join(folder, "plans.json");
        // The first start's workspace is on plan pro; its limit here takes the large body and no more.
        const pro = {
          name: "Pro",
          requests_per_minute: 600,
          api_keys: 10,
          webhook_endpoints: 0,
          cycle_allowance: 1000,
          videos_per_job: 10,
          upload_megabytes: 600,
        };
        writeFileSync(plans, JSON.stringify({ pro }));
        const server = await startServerProcess({
          databaseUrl: database.url,
          env: { VIDROWS_PLANS: plans },
        });
        const key = server.printedKey()!;
        expect(key).not.toBeNull();

        // A small upload first, so that what any upload loads once (ffprobe found, code paths run) is in
        // the peak before the large one is measured.
        const small = await uploadWav(server.url, key, 2 * mebibyte);
        expect(small.status, small.body).toBe(201);
        const before = peakResidentBytes(server.pid);

        const large = await uploadWav(server.url, key, largeBodyBytes);
        expect(large.status, large.body).toBe(201);
        const taken = JSON.parse(large.body) as { bytes: number; duration_seconds: number };
        expect(taken.bytes).toBe(largeBodyBytes);
        // The whole body reached the store and was measured from it: every second of the silence.
        const seconds = (largeBodyBytes - 44) / (sampleRate * channels * bytesPerSample);
        expect(Math.abs(taken.duration_seconds - seconds)).toBeLessThan(1);

        const growth = peakResidentBytes(server.pid) - before;
        console.info(
          `[upload memory] ${dialect.name}: peak grew by ${(growth / mebibyte).toFixed(1)} MiB taking ${largeBodyBytes / mebibyte} MiB (from ${(before / mebibyte).toFixed(1)} MiB)`,
        );
        expect(growth).toBeLessThan(allowedGrowthBytes);
      },
    );
  }
});
