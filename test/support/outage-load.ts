// A real deployment for outage tests: `vidrows serve --no-worker` and `vidrows worker` as child processes on
// one database, the fake model, a caption folder and a webhook receiver; jobs in flight, webhooks pending,
// load during the outage, and the books checked afterwards.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "../../src/concurrency/sleep.js";
import type { DatabaseTarget } from "../../src/config.js";
import { openStore, type Store } from "../../src/store/database.js";
import { readBooks, settledBooksProblems } from "./books.js";
import { type FakeModel, rowsReply, startFakeModel } from "./fake-model.js";
import { webVtt } from "./pipeline.js";
import {
  runCli,
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
  type WorkerProcess,
} from "./processes.js";
import { call } from "./test-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";
import { waitUntil } from "./waiting.js";

const plan = {
  name: "Outage",
  requests_per_minute: 100_000,
  api_keys: 10,
  webhook_endpoints: 5,
  cycle_allowance: 100_000,
  videos_per_job: 100,
};
export const startingBalance = plan.cycle_allowance;

/**
 * A plan whose budget is counted request by request (under 200 a minute: a block of one), so that every
 * request of its workspaces writes its rate-limit count: the plans most workspaces are on.
 */
const countedPlan = { ...plan, name: "Counted", requests_per_minute: 150 };

export interface OutageStack {
  readonly api: ServerProcess;
  readonly worker: WorkerProcess;
  readonly model: FakeModel;
  readonly receiver: WebhookReceiver;
  readonly key: string;
  readonly workspaceId: string;
  /** The test's own connection, for reading the books (opened after the processes started). */
  readonly store: Store;
  /** The environment of the child processes, for starting more. */
  readonly env: Record<string, string>;
  readonly captionsDir: string;
  close(): Promise<void>;
}

/** Starts everything on `database` (migrated by the first command), with a workspace and a webhook endpoint. */
export async function startOutageStack(database: {
  url: string;
  target: DatabaseTarget;
}): Promise<OutageStack> {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-outage-"));
  writeFileSync(join(folder, "plans.json"), JSON.stringify({ pro: plan, counted: countedPlan }));
  const captions = join(folder, "captions");
  mkdirSync(captions);
  // Slow enough that jobs are still in flight when the outage begins.
  const model = await startFakeModel({ respond: () => rowsReply([{ item: "thing" }]), delayMs: 300 });
  // Answers late, so that deliveries are under way when it begins too.
  const receiver = await startWebhookReceiver({ answerDelayMs: 200 });
  const env = {
    VIDROWS_PLANS: join(folder, "plans.json"),
    VIDROWS_CAPTIONS: `dir:${captions}`,
    VIDROWS_LLM_BASE_URL: model.url,
    VIDROWS_LLM_API_KEY: "test",
    VIDROWS_WEBHOOK_ALLOW_PRIVATE: "1",
    VIDROWS_WORKER_VIDEOS: "4",
    // The load asks for the OpenAPI document (no key) more often than the default 60 a minute; its
    // budget is counted even while the database cannot be written, in the process.
    VIDROWS_ANONYMOUS_RPM: "100000",
    VIDROWS_WEBHOOK_LEASE_SECONDS: "30",
    NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url)),
    DATABASE_URL: database.url,
  };
  const created = await runCli(["workspace", "create", "--name", "outage", "--plan", "pro", "--json"], env);
  if (created.code !== 0) throw new Error(`workspace create failed: ${created.stderr}`);
  const { workspace_id: workspaceId, api_key: key } = JSON.parse(created.stdout);
  const api = await startServerProcess({ databaseUrl: database.url, env });
  const worker = await startWorkerProcess({ databaseUrl: database.url, env });
  const hook = await call(api.url, "POST", "/v1/webhooks", { key, body: { url: `${receiver.origin}/hook` } });
  if (hook.status !== 201) throw new Error(`POST /v1/webhooks answered ${hook.status}: ${hook.text}`);
  const store = openStore(database.target, { maxConnections: 2, rememberAnswers: false });
  return {
    api,
    worker,
    model,
    receiver,
    key,
    workspaceId,
    store,
    env,
    captionsDir: captions,
    async close() {
      await Promise.allSettled([api.stop(), worker.stop()]);
      await store.close().catch(() => {});
      await receiver.close();
      await model.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A new workspace on `plan` (`pro`, or `counted`: every request a rate-limit write); answers its key. */
export async function createWorkspace(stack: OutageStack, plan: "pro" | "counted"): Promise<string> {
  const created = await runCli(
    ["workspace", "create", "--name", `outage-${plan}`, "--plan", plan, "--json"],
    stack.env,
  );
  if (created.code !== 0) throw new Error(`workspace create failed: ${created.stderr}`);
  return JSON.parse(created.stdout).api_key as string;
}

/** Submits `jobs` jobs of `videosPerJob` videos (captions written first); answers the video count. */
export async function submitWork(stack: OutageStack, jobs: number, videosPerJob: number): Promise<number> {
  for (let j = 0; j < jobs; j++) {
    const videos = Array.from({ length: videosPerJob }, (_, v) =>
      `o${String(j).padStart(3, "0")}v${v}`.padEnd(11, "x"),
    );
    for (const id of videos)
      writeFileSync(join(stack.captionsDir, `${id}.vtt`), webVtt(30, [`Video ${id}.`]));
    const job = await call(stack.api.url, "POST", "/v1", {
      key: stack.key,
      body: { videos, schema: { columns: ["item"] } },
    });
    if (job.status !== 202) throw new Error(`POST /v1 answered ${job.status}: ${job.text}`);
  }
  return jobs * videosPerJob;
}

export interface Answer {
  readonly request: string;
  readonly status: number;
  readonly code: string | null;
  readonly retryAfter: string | null;
}

/**
 * Sends a mix of reads, writes and the OpenAPI document until `durationMs` has passed or `maxRounds`
 * rounds were sent (each round: one of each, in parallel); answers every response.
 */
export async function loadDuring(
  stack: OutageStack,
  durationMs: number,
  maxRounds = 300,
  // At least this many rounds whatever the clock says: on a busy machine 4 s held only 3 rounds, and the
  // suites' checks need a few answers of each kind while the outage lasts (it lasts until this returns).
  minRounds = 6,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  const deadline = Date.now() + durationMs;
  const requests: [string, () => ReturnType<typeof call>][] = [
    ["GET /v1/usage", () => call(stack.api.url, "GET", "/v1/usage", { key: stack.key })],
    ["GET /v1", () => call(stack.api.url, "GET", "/v1?limit=5", { key: stack.key })],
    [
      "POST /v1",
      () =>
        call(stack.api.url, "POST", "/v1", {
          key: stack.key,
          body: { videos: ["outagexxxxx"], schema: { columns: ["item"] } },
        }),
    ],
    [
      "POST /v1/keys",
      () => call(stack.api.url, "POST", "/v1/keys", { key: stack.key, body: { label: "x" } }),
    ],
    ["GET /v1/openapi.json", () => call(stack.api.url, "GET", "/v1/openapi.json")],
  ];
  for (let round = 0; round < maxRounds && (round < minRounds || Date.now() < deadline); round++) {
    const responses = await Promise.all(requests.map(async ([name, send]) => [name, await send()] as const));
    for (const [request, response] of responses) {
      const code = typeof response.body?.error?.code === "string" ? response.body.error.code : null;
      answers.push({
        request,
        status: response.status,
        code,
        retryAfter: response.headers.get("retry-after"),
      });
    }
    await sleep(20);
  }
  return answers;
}

/** "GET /v1/usage 503 unavailable" -> count, for the report and for readable failures. */
export function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = `${a.request} ${a.status}${a.code ? ` ${a.code}` : ""}${a.retryAfter ? " retry-after" : ""}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Whether a process is still running (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits (bounded) until every video has settled and every delivery has been made, then reads what
 * happened: the books' problems (empty when every video was charged once), and the webhooks.
 */
export async function settledFigures(stack: OutageStack, videos: number, timeoutMs = 90_000) {
  const { store, workspaceId } = stack;
  // Every video of the workspace, not only the first `videos`: jobs submitted while the outage lasted are
  // in the books too, and a check made while one of them is still running would see it unsettled.
  await waitUntil(
    `all ${videos} videos, and those submitted during the outage, to settle`,
    async () => {
      const rows = await store.db
        .selectFrom("videos")
        .select("status")
        .where("workspace_id", "=", workspaceId)
        .execute();
      const settled = rows.filter((r) => r.status === "done" || r.status === "failed").length;
      return settled >= videos && settled === rows.length;
    },
    timeoutMs,
    200,
  );
  const deliveries = await waitUntil(
    "every webhook delivery to be made",
    async () => {
      const rows = await store.db.selectFrom("webhook_deliveries").select(["status"]).execute();
      return rows.length > 0 && rows.every((r) => r.status === "delivered") ? rows.length : false;
    },
    timeoutMs,
    200,
  );
  const books = await readBooks(store, workspaceId);
  const ids = stack.receiver.received.map((r) => String(r.headers["webhook-id"]));
  return {
    books,
    problems: settledBooksProblems(books, startingBalance),
    deliveries,
    received: ids.length,
    distinctReceived: new Set(ids).size,
    charged: -books.charges.reduce((sum, c) => sum + c.amount, 0),
  };
}
