// How long a long recording takes from `vidrows-client jobs submit ./file --columns ... --wait` to its rows,
// on SQLite, with a fake model and a fake transcription endpoint that answer at once, so that what is
// measured is vidrows and ffmpeg: the upload (stored, then measured by ffprobe and ffmpeg), the worker's
// re-encoding of the audio for speech-to-text (or its reading of a subtitle stream), the pieces sent, the
// model's chunks and the handover of the rows. Needs `npm run build` first (dist/cli.js and the client's
// CLI). Each file is run `--repeat` times, each time on a fresh server and database:
//
//   node --import tsx bench/uploads/hour-to-rows.ts --repeat=2 hour.m4a hour-subtitled.mkv
//
// The phases are read off the clock of this process: the CLI's stderr lines (the upload's start and its
// `upload_id` once stored), the fake endpoints' first and last requests, and the CLI's exit.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchModel } from "../pipeline/fake-model.js";

const serverCli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const clientCli = fileURLToPath(new URL("../../clients/typescript/bin/vidrows-client.js", import.meta.url));

const args = process.argv.slice(2);
const repeat = Number(args.find((a) => a.startsWith("--repeat="))?.split("=")[1] ?? "1");
const files = args.filter((a) => !a.startsWith("--"));

/** The speech-to-text fake: every piece answered at once with a sentence every 10 s of its length. */
async function startTranscription() {
  const received: { at: number; bytes: number }[] = [];
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
    request.on("end", () => {
      received.push({ at: Date.now(), bytes });
      // The worker sends mono AAC at 48 kbit/s: the piece's length from its size, near enough.
      const seconds = Math.max(10, Math.floor((bytes * 8) / 48_000));
      const segments = Array.from({ length: Math.floor(seconds / 10) }, (_, i) => ({
        id: i,
        start: i * 10,
        end: i * 10 + 10,
        text: ` At ${i * 10} seconds the speaker says the blue kettle costs thirty dollars and the red one costs forty, which is a fair price for a kettle.`,
      }));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          task: "transcribe",
          duration: seconds,
          text: segments.map((s) => s.text).join(""),
          segments,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Spawns a process and collects its output, each line stamped with when it came. */
function run(command: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, command, { env, stdio: "pipe" });
  const lines: { at: number; stream: "out" | "err"; text: string }[] = [];
  const collect = (stream: "out" | "err") => (chunk: Buffer) => {
    for (const text of String(chunk).split("\n"))
      if (text.trim() !== "") lines.push({ at: Date.now(), stream, text });
  };
  child.stdout!.on("data", collect("out"));
  child.stderr!.on("data", collect("err"));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, lines, exited };
}

async function once(file: string) {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-hour-"));
  const model = await startBenchModel(0);
  const stt = await startTranscription();
  // Every plan takes an hour's file and pays for it; the rate limit stays out of the way.
  const plan = {
    name: "Bench",
    requests_per_minute: 100_000,
    api_keys: 10,
    webhook_endpoints: 0,
    cycle_allowance: 1_000_000,
    videos_per_job: 100,
    upload_megabytes: 4096,
  };
  writeFileSync(join(folder, "plans.json"), JSON.stringify({ free: plan, pro: plan, scale: plan }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: join(folder, "vidrows.db"),
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    VIDROWS_PLANS: join(folder, "plans.json"),
    VIDROWS_LLM_BASE_URL: model.url,
    VIDROWS_LLM_API_KEY: "bench",
    VIDROWS_LLM_MODEL: "bench-model",
    VIDROWS_TRANSCRIBE_BASE_URL: stt.url,
    VIDROWS_TRANSCRIBE_API_KEY: "bench",
    VIDROWS_TRANSCRIBE_MODEL: "bench-whisper",
    VIDROWS_UPLOAD_RESERVE_MB: "0",
  };
  const server = run([serverCli, "serve"], { ...env });
  const deadline = Date.now() + 60_000;
  let url = "";
  let key = "";
  while ((url === "" || key === "") && Date.now() < deadline) {
    for (const { text } of server.lines) {
      if (text.startsWith("{") && text.includes('"vidrows is listening"')) url = JSON.parse(text).address;
      key ||= /\bvr_live_[0-9A-Za-z]{32}\b/.exec(text)?.[0] ?? "";
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (url === "" || key === "")
    throw new Error(`the server did not start:\n${server.lines.map((l) => l.text).join("\n")}`);

  const clientEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    VIDROWS_BASE_URL: url,
    VIDROWS_API_KEY: key,
  };
  const started = Date.now();
  const submit = run([clientCli, "jobs", "submit", file, "--columns", "product,price", "--wait"], clientEnv);
  const submitCode = await submit.exited;
  const settled = Date.now();
  const jobId = /"job_id":\s*"(job_[0-9a-z]+)"/.exec(submit.lines.map((l) => l.text).join("\n"))?.[1];
  const rows = run([clientCli, "jobs", "rows", jobId ?? "none", "--format", "jsonl"], clientEnv);
  const rowsCode = await rows.exited;
  const done = Date.now();
  if (submitCode !== 0 || rowsCode !== 0 || !jobId) {
    throw new Error(
      `the CLI failed (${submitCode}, ${rowsCode}):\n${[...submit.lines, ...rows.lines].map((l) => l.text).join("\n")}`,
    );
  }
  const stored = submit.lines.find((l) => l.stream === "err" && /upl_[0-9a-z]{26}/.test(l.text))?.at ?? NaN;
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const sttFirst = stt.received[0]?.at;
  const sttLast = stt.received.at(-1)?.at;
  const modelLast = model.answeredAt.at(-1);
  const result = {
    file: basename(file),
    mib: (statSync(file).size / 2 ** 20).toFixed(1),
    total: s(done - started),
    upload_and_measure: s(stored - started),
    to_first_stt_piece: sttFirst ? s(sttFirst - stored) : "-",
    stt_pieces: stt.received.length,
    stt_first_to_last: sttFirst && sttLast ? s(sttLast - sttFirst) : "-",
    to_first_model_request: s(model.firstRequestAt - (sttLast ?? stored)),
    model_requests: model.requests,
    model_first_to_last: modelLast ? s(modelLast - model.firstRequestAt) : "-",
    last_answer_to_settled: modelLast ? s(settled - modelLast) : "-",
    rows_read: s(done - settled),
    rows: rows.lines.filter((l) => l.stream === "out").length,
  };
  server.child.kill("SIGTERM");
  await server.exited;
  await model.close();
  await stt.close();
  rmSync(folder, { recursive: true, force: true });
  return result;
}

for (const file of files) {
  for (let i = 0; i < repeat; i++) console.log(JSON.stringify(await once(file)));
}
