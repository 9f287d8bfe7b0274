// Database outages under load, with real processes: PostgreSQL stopped for 10 s, SQLite's disk full, its
// files made unwritable, its shared-memory file made unwritable. Requests meanwhile get 503 `unavailable`
// with Retry-After, the processes stay up, and afterwards every video is settled and charged once and
// every webhook delivered once.
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Answer,
  alive,
  createWorkspace,
  loadDuring,
  type OutageStack,
  settledFigures,
  startOutageStack,
  submitWork,
  tally,
} from "../support/outage-load.js";
import { type OwnPostgres, ownPostgresProblem, startOwnPostgres } from "../support/own-postgres.js";
import { killAllChildren, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { waitUntil } from "../support/waiting.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

afterAll(async () => {
  await killAllChildren();
});

const tryRun = (command: string, args: string[]): string | null => {
  try {
    execFileSync(command, args, { stdio: "pipe" });
    return null;
  } catch (error) {
    return `${command} ${args[0]} failed: ${String((error as Error).message).split("\n")[0]}`;
  }
};

// A small tmpfs makes a disk that fills in milliseconds and empties at once; mounting one needs root.
const tmpfsMount = mkdtempSync(join(tmpdir(), "vidrows-full-disk-"));
const tmpfsProblem =
  process.getuid?.() !== 0
    ? "mounting a tmpfs needs root"
    : tryRun("mount", ["-t", "tmpfs", "-o", "size=32m", "tmpfs", tmpfsMount]);
// `chattr +i` makes a file unwritable even to root, and to a process that already has it open.
const chattrProbe = join(mkdtempSync(join(tmpdir(), "vidrows-chattr-")), "probe");
closeSync(openSync(chattrProbe, "w"));
const chattrProblem = tryRun("chattr", ["+i", chattrProbe]) ?? tryRun("chattr", ["-i", chattrProbe]);
const postgresProblem = ownPostgresProblem();
if (postgresProblem && process.env.VIDROWS_REQUIRE_POSTGRES === "1") {
  throw new Error(`VIDROWS_REQUIRE_POSTGRES=1, but an own PostgreSQL cannot be started: ${postgresProblem}`);
}

afterAll(() => {
  if (tmpfsProblem === null) tryRun("umount", ["-l", tmpfsMount]);
  rmSync(tmpfsMount, { recursive: true, force: true });
  rmSync(join(chattrProbe, ".."), { recursive: true, force: true });
});

const title = (what: string, problem: string | null) => (problem ? `${what} (skipped: ${problem})` : what);

/** Jobs still in flight and a webhook already under way: the outage begins in the middle of the work. */
async function midWork(stack: OutageStack): Promise<number> {
  const videos = await submitWork(stack, 8, 5);
  await stack.receiver.waitFor(1, workWaitMs);
  return videos;
}

/** What the books said just before the outage, for the report. */
async function settledSoFar(stack: OutageStack) {
  const rows = await stack.store.db
    .selectFrom("videos")
    .select(["status", "credits_charged"])
    .where("workspace_id", "=", stack.workspaceId)
    .execute();
  const settled = rows.filter((r) => r.status === "done" || r.status === "failed");
  return { settled: settled.length, charged: settled.reduce((sum, r) => sum + r.credits_charged, 0) };
}

function expectRefusedProperly(answer: Answer) {
  expect(answer, JSON.stringify(answer)).toMatchObject({ status: 503, code: "unavailable", retryAfter: "5" });
}

/** Once the database is back: every video settled and charged once, every webhook delivered once. */
async function expectNothingLost(
  stack: OutageStack,
  videos: number,
  label: string,
  before: unknown,
  answers: Answer[],
) {
  expect(alive(stack.api.pid), `the API died:\n${stack.api.stderr()}`).toBe(true);
  expect(alive(stack.worker.pid), `the worker died:\n${stack.worker.stderr()}`).toBe(true);
  const after = await settledFigures(stack, videos);
  console.info(
    `[outage figures] ${label}`,
    JSON.stringify({
      before,
      during: tally(answers),
      after: {
        videos: after.books.videos.length,
        done: after.books.videos.filter((v) => v.status === "done").length,
        charges: after.books.charges.length,
        charged: after.charged,
        balance: after.books.workspace.balance,
        deliveries: after.deliveries,
        received: after.received,
        distinctReceived: after.distinctReceived,
      },
    }),
  );
  expect(after.problems).toEqual([]);
  const notDone = after.books.videos.filter((v) => v.status !== "done");
  expect(notDone, `videos not done: ${JSON.stringify(notDone)}`).toHaveLength(
    after.books.videos.length - videos,
  );
  expect(after.books.charges).toHaveLength(videos);
  expect(after.received).toBe(after.deliveries);
  expect(after.distinctReceived).toBe(after.deliveries);
  const usage = await call(stack.api.url, "GET", "/v1/usage", { key: stack.key });
  expect(usage.status).toBe(200);
  // The outage was never taken for a bug: no error line from the API, and no rollback of a
  // transaction SQLite had already ended.
  expect(stack.api.stdout()).not.toContain('"level":50');
  expect(stack.api.stdout() + stack.worker.stdout()).not.toContain("cannot rollback");
}

describe.skipIf(postgresProblem !== null)(
  title("PostgreSQL stopped for 10 s under load", postgresProblem),
  () => {
    let postgres: OwnPostgres;
    let stack: OutageStack;
    beforeAll(async () => {
      postgres = await startOwnPostgres();
      stack = await startOutageStack({ url: postgres.url, target: { kind: "postgres", url: postgres.url } });
    });
    afterAll(async () => {
      await stack?.close();
      await postgres?.destroy();
    });

    it("answers 503 with Retry-After meanwhile, stays up, then settles, charges and delivers everything once", async () => {
      const videos = await midWork(stack);
      const before = await settledSoFar(stack);
      await postgres.stop();
      let answers: Answer[];
      try {
        answers = await loadDuring(stack, 10_000);
      } finally {
        await postgres.start();
      }
      expect(answers.length).toBeGreaterThan(20);
      for (const answer of answers) {
        if (answer.request === "GET /v1/openapi.json") expect(answer.status).toBe(200);
        else expectRefusedProperly(answer);
      }
      await expectNothingLost(stack, videos, "postgres", before, answers);
    });
  },
);

/** Writes zeros into `path` until the disk refuses more. */
function fillDisk(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const zeros = Buffer.alloc(size);
      for (let i = 0; i < 100_000; i++) {
        try {
          writeSync(fd, zeros);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * During a SQLite outage: no 500, every write refused properly, reads answered or refused properly.
 * With `someWritesFit`, a write may also be accepted, as long as writes were refused too: on a full
 * disk the log's blocks that are already allocated still take commits (the checkpoint thread keeps
 * the log short and starts it again from its beginning), and what is accepted there is on disk, which
 * `expectNothingLost` checks; the commits that need a new block are refused. Keys made so can reach
 * the plan's limit on keys, which is then answered as always.
 */
/** A write the API made, or refused for what was made before it (keys created up to the plan's limit). */
const writeDecided = (answer: Answer) =>
  answer.status < 300 ||
  (answer.request === "POST /v1/keys" && answer.status === 403 && answer.code === "plan_limit");

function expectSqliteOutageAnswers(answers: Answer[], options: { someWritesFit?: boolean } = {}) {
  expect(answers.length).toBeGreaterThan(20);
  let refusedWrites = 0;
  for (const answer of answers) {
    // Reads are served: what they would write (the rate-limit count, a key's last use) is bookkeeping.
    if (answer.request.startsWith("GET"))
      expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
    else if (options.someWritesFit && answer.request.startsWith("POST") && writeDecided(answer)) continue;
    else if (answer.request.startsWith("POST") || answer.status !== 200) {
      expectRefusedProperly(answer);
      if (answer.request.startsWith("POST")) refusedWrites++;
    }
  }
  expect(refusedWrites).toBeGreaterThan(0);
}

describe.skipIf(tmpfsProblem !== null)(title("SQLite on a full disk under load", tmpfsProblem), () => {
  let stack: OutageStack;
  const path = join(tmpfsMount, "vidrows.db");
  beforeAll(async () => {
    stack = await startOutageStack({ url: path, target: { kind: "sqlite", path } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("answers 503 with Retry-After to the writes that need space, stays up, and loses nothing once space returns", async () => {
    const videos = await midWork(stack);
    const before = await settledSoFar(stack);
    const filler = join(tmpfsMount, "filler");
    let answers: Answer[];
    try {
      fillDisk(filler);
      answers = await loadDuring(stack, 4000);
    } finally {
      unlinkSync(filler);
    }
    expectSqliteOutageAnswers(answers, { someWritesFit: true });
    await expectNothingLost(stack, videos, "sqlite full disk", before, answers);
  });

  it("keeps serving reads whose bookkeeping cannot be written: each request's rate-limit count, a key's first use", async () => {
    // A workspace whose every request writes its rate-limit count, and a key of it never used yet,
    // whose first use writes `last_used_at`.
    const key = await createWorkspace(stack, "counted");
    const created = await call(stack.api.url, "POST", "/v1/keys", { key, body: { label: "unused" } });
    expect(created.status, created.text).toBe(201);
    const unused: string = created.body.key;
    const reads: [string, string][] = [
      ["/v1/usage", key],
      ["/v1?limit=5", key],
      ["/v1/keys", key],
      ["/v1/schemas", key],
      ["/v1/usage", unused],
    ];
    const filler = join(tmpfsMount, "filler");
    const answers: string[] = [];
    let writes: Answer[];
    try {
      fillDisk(filler);
      // Writes first, until one is refused: the disk is then full even for the log's allocated blocks.
      writes = await loadDuring(stack, 4000);
      // 20 rounds of 5: 100 requests, within the plan's 150 a minute, in this window or the next.
      for (let round = 0; round < 20; round++) {
        for (const [path, as] of reads) {
          const answer = await call(stack.api.url, "GET", path, { key: as });
          answers.push(`GET ${path} ${answer.status}${answer.status === 200 ? "" : ` ${answer.text}`}`);
        }
      }
    } finally {
      unlinkSync(filler);
    }
    expect(writes.some((w) => w.request.startsWith("POST") && w.status === 503)).toBe(true);
    expect(answers.filter((line) => !/ 200$/.test(line))).toEqual([]);
    expect(answers).toHaveLength(100);
    // Once there is room again, the key's use is recorded by a later request.
    await call(stack.api.url, "GET", "/v1/usage", { key: unused });
    const listed = await call(stack.api.url, "GET", "/v1/keys", { key });
    const unusedKey = listed.body.data.find((k: any) => k.label === "unused");
    expect(unusedKey.last_used_at).not.toBeNull();
  });
});

describe.skipIf(chattrProblem !== null)(title("SQLite with its files made unwritable", chattrProblem), () => {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-readonly-"));
  const path = join(folder, "vidrows.db");
  const chattr = (flag: string, files: string[]) => execFileSync("chattr", [flag, ...files]);
  afterAll(() => {
    tryRun("chattr", ["-i", path, `${path}-wal`, `${path}-shm`]);
    rmSync(folder, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After to writes, stays up, and loses nothing once they are writable", async () => {
    const stack = await startOutageStack({ url: path, target: { kind: "sqlite", path } });
    try {
      const videos = await midWork(stack);
      const before = await settledSoFar(stack);
      const files = [path, `${path}-wal`];
      let answers: Answer[];
      chattr("+i", files);
      try {
        answers = await loadDuring(stack, 4000);
      } finally {
        chattr("-i", files);
      }
      expectSqliteOutageAnswers(answers);
      await expectNothingLost(stack, videos, "sqlite read-only files", before, answers);
    } finally {
      await stack.close();
    }
  });

  it("fences the store while the -shm file is unwritable, instead of dying of SIGBUS", async () => {
    const shmFolder = mkdtempSync(join(tmpdir(), "vidrows-shm-"));
    const shmPath = join(shmFolder, "vidrows.db");
    const api = await startServerProcess({ databaseUrl: shmPath });
    const key = api.printedKey() as string;
    try {
      expect((await call(api.url, "GET", "/v1/usage", { key })).status).toBe(200);
      // Nothing touches the database until the guard has seen the change (the API is idle).
      chattr("+i", [`${shmPath}-shm`]);
      try {
        await waitUntil("the store to be fenced", () => api.stdout().includes("store fenced"), workWaitMs);
        const refused = await call(api.url, "GET", "/v1/usage", { key });
        expect(refused.status).toBe(503);
        expect(refused.body.error.code).toBe("unavailable");
        expect(refused.headers.get("retry-after")).toBe("5");
        expect((await call(api.url, "GET", "/v1/openapi.json")).status).toBe(200);
      } finally {
        chattr("-i", [`${shmPath}-shm`]);
      }
      await waitUntil("the fence to lift", () => api.stdout().includes("store fence lifted"), workWaitMs);
      expect((await call(api.url, "GET", "/v1/usage", { key })).status).toBe(200);
      expect(alive(api.pid)).toBe(true);
    } finally {
      await api.stop();
      tryRun("chattr", ["-i", `${shmPath}-shm`]);
      rmSync(shmFolder, { recursive: true, force: true });
    }
  });
});
