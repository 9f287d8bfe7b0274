// Two worker processes racing over one PostgreSQL queue: 500 videos of 10 workspaces, each settled once and
// charged once, with every count and counter agreeing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditsForDuration } from "../../src/domain/pricing.js";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { type DialectCase, dialects, dialectTitle } from "../support/databases.js";
import type { PipelineServer } from "../support/pipeline.js";
import { killAllChildren } from "../support/processes.js";
import { waitUntil } from "../support/waiting.js";
import { startApiWithoutWorker, startWorkerFor, submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const postgres = dialects.find((d) => d.name === "postgres") as DialectCase;

const workspaceCount = 10;
const videosPerWorkspace = 50;
const durations = [30, 75, 120, 165];

/** The messages of the error (or worse) lines in a process's JSON log. */
function loggedErrors(log: string): string[] {
  return log
    .split("\n")
    .filter((line) => /^\{.*"level":(50|60)/.test(line))
    .map((line) => {
      const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
      return `${entry.msg}: ${entry.err?.message ?? ""}`;
    });
}

describe.skipIf(postgres.skipReason !== null)(`two worker processes on ${dialectTitle(postgres)}`, () => {
  let server: PipelineServer;
  beforeAll(async () => {
    server = await startApiWithoutWorker("postgres");
  });
  afterAll(async () => {
    await killAllChildren();
    await server?.close();
  });

  it("settles each of 500 videos from 10 workspaces exactly once and charges it exactly once", async () => {
    const settings = { VIDROWS_WORKER_VIDEOS: "16", VIDROWS_MODEL_CONCURRENCY: "8" };
    const workers = await Promise.all([startWorkerFor(server, settings), startWorkerFor(server, settings)]);

    // Per workspace: two jobs of 25; the first has one video without captions, so it ends `partial`.
    const plans = await Promise.all(
      Array.from({ length: workspaceCount }, async (_, w) => {
        const { workspaceId, key } = await server.workspace("pro");
        const ids = videoIds(`w${w}x`, videosPerWorkspace);
        let expectedCredits = 0;
        ids.forEach((id, i) => {
          if (i === 7) return; // no captions
          const duration = durations[i % durations.length] as number;
          server.addCaptions(id, duration);
          expectedCredits += creditsForDuration(duration);
        });
        return { workspaceId, key, ids, expectedCredits };
      }),
    );
    // Submitted all at once, while both workers are already polling.
    await Promise.all(
      plans.flatMap(({ key, ids }) => [
        submitJob(server, key, ids.slice(0, 25)),
        submitJob(server, key, ids.slice(25)),
      ]),
    );

    const db = server.app.store.db;
    // Who holds videos while they run, sampled: both workers take part, neither beyond its 16.
    const mostHeld = new Map<string, number>();
    await waitUntil(
      "every video to settle",
      async () => {
        const holders = await db
          .selectFrom("videos")
          .select(["lease_owner", (eb) => eb.fn.countAll<number>().as("n")])
          .where("status", "=", "processing")
          .groupBy("lease_owner")
          .execute();
        for (const { lease_owner, n } of holders) {
          mostHeld.set(String(lease_owner), Math.max(mostHeld.get(String(lease_owner)) ?? 0, Number(n)));
        }
        // Jobs rather than videos: a job's videos become rows only when a worker admits them.
        const open = await db
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", "processing")
          .executeTakeFirstOrThrow();
        return Number(open.n) === 0;
      },
      workWaitMs,
      200,
    ).catch((error: Error) => {
      // Say why, when videos are stuck: the workers' errors.
      const errors = workers.flatMap((w) => loggedErrors(w.stdout()));
      throw new Error(`${error.message}\nWorker errors:\n${errors.slice(0, 10).join("\n")}`);
    });

    for (const { workspaceId, key, ids, expectedCredits } of plans) {
      const books = await readBooks(server.app.store, workspaceId);
      expect(settledBooksProblems(books, 10_000), workspaceId).toEqual([]);
      expect(books.videos).toHaveLength(videosPerWorkspace);
      // No crash, no lapsed lease: each video was claimed by exactly one of the two workers, once.
      expect(books.videos.filter((v) => v.claims !== 1)).toEqual([]);
      const failed = books.videos.filter((v) => v.status === "failed");
      expect(failed.map((v) => v.error_code)).toEqual(["no_captions"]);
      expect(books.charges).toHaveLength(ids.length - 1);
      expect(books.workspace.used_this_cycle).toBe(expectedCredits);

      const usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.body.credits.balance).toBe(10_000 - expectedCredits);
      expect(usage.body.videos_processed).toBe(videosPerWorkspace - 1);
      expect(usage.body.jobs).toEqual({ queued: 0, processing: 0, done: 1, failed: 1, total: 2 });
      expect(usage.body.failures_by_code).toEqual({ no_captions: 1 });
    }
    expect([...mostHeld.keys()].sort()).toEqual(workers.map((w) => w.workerId).sort());
    for (const held of mostHeld.values()) expect(held).toBeLessThanOrEqual(16);
    // Nothing went wrong on the way: no deadlock, no failed claim or settlement, in either worker.
    const errors = workers.flatMap((w) => loggedErrors(w.stdout()));
    expect(errors).toEqual([]);
    // The model was asked once per video with captions: no video was worked on twice.
    expect(server.model.requestCount).toBe(workspaceCount * (videosPerWorkspace - 1));
    await Promise.all(workers.map((w) => w.stop()));
  });
});
