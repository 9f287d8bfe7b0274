// A workspace's money and counters read straight from the store, and the ways they can disagree.
import { jobStatus } from "../../src/domain/job-status.js";
import type { Store } from "../../src/store/database.js";

export interface Books {
  readonly workspace: {
    balance: number;
    used_this_cycle: number;
    videos_processed: number;
    jobs_queued: number;
    jobs_processing: number;
    jobs_done: number;
    jobs_failed: number;
    jobs_with_failures: number;
  };
  /** The ledger's `charge` entries, oldest first. */
  readonly charges: { amount: number; balance_after: number }[];
  readonly videos: {
    id: string;
    job_id: string;
    status: string;
    credits_charged: number;
    claims: number;
    lease_owner: string | null;
    error_code: string | null;
    error_retryable: number | null;
  }[];
  readonly jobs: {
    id: string;
    status: string;
    video_count: number;
    queued_count: number;
    processing_count: number;
    done_count: number;
    failed_count: number;
    credits_charged: number;
  }[];
  readonly failuresByCode: Record<string, number>;
}

export async function readBooks(store: Store, workspaceId: string): Promise<Books> {
  const workspace = await store.db
    .selectFrom("workspaces")
    .select([
      "balance",
      "used_this_cycle",
      "videos_processed",
      "jobs_queued",
      "jobs_processing",
      "jobs_done",
      "jobs_failed",
      "jobs_with_failures",
    ])
    .where("id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  const charges = await store.db
    .selectFrom("credit_ledger")
    .select(["amount", "balance_after"])
    .where("workspace_id", "=", workspaceId)
    .where("kind", "=", "charge")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const videos = await store.db
    .selectFrom("videos")
    .select([
      "id",
      "job_id",
      "status",
      "credits_charged",
      "claims",
      "lease_owner",
      "error_code",
      "error_retryable",
    ])
    .where("workspace_id", "=", workspaceId)
    .execute();
  const jobs = await store.db
    .selectFrom("jobs")
    .select([
      "id",
      "status",
      "video_count",
      "queued_count",
      "processing_count",
      "done_count",
      "failed_count",
      "credits_charged",
    ])
    .where("workspace_id", "=", workspaceId)
    .execute();
  const failures = await store.db
    .selectFrom("failure_counts")
    .select(["code", "count"])
    .where("workspace_id", "=", workspaceId)
    .execute();
  return {
    workspace,
    charges,
    videos,
    jobs,
    failuresByCode: Object.fromEntries(failures.map((f) => [f.code, Number(f.count)])),
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Every way the books of a workspace whose videos have all settled disagree with themselves, given
 * the balance it had before any video was charged; empty when they agree.
 */
export function settledBooksProblems(books: Books, startingBalance: number): string[] {
  const problems: string[] = [];
  const expectEqual = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      problems.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  };
  const { workspace, charges, videos, jobs } = books;
  const done = videos.filter((v) => v.status === "done");
  const failed = videos.filter((v) => v.status === "failed");
  const charged = -sum(charges.map((c) => c.amount));

  expectEqual("videos neither done nor failed", videos.length - done.length - failed.length, 0);
  expectEqual("videos still holding a lease", videos.filter((v) => v.lease_owner !== null).length, 0);
  expectEqual("ledger charge entries (one per done video)", charges.length, done.length);
  expectEqual(
    "credits charged in the ledger vs on the videos",
    charged,
    sum(videos.map((v) => v.credits_charged)),
  );
  expectEqual(
    "credits charged in the ledger vs on the jobs",
    charged,
    sum(jobs.map((j) => j.credits_charged)),
  );
  expectEqual("credits charged to failed videos", sum(failed.map((v) => v.credits_charged)), 0);
  expectEqual("done videos charged nothing", done.filter((v) => v.credits_charged < 1).length, 0);
  expectEqual("balance", workspace.balance, startingBalance - charged);
  expectEqual("used_this_cycle", workspace.used_this_cycle, charged);
  expectEqual("videos_processed", workspace.videos_processed, done.length);
  expectEqual(
    "ledger entries leaving a negative balance",
    charges.filter((c) => c.balance_after < 0).length,
    0,
  );
  const failures: Record<string, number> = {};
  for (const video of failed)
    failures[video.error_code ?? "?"] = (failures[video.error_code ?? "?"] ?? 0) + 1;
  const sortedEntries = (o: Record<string, number>) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1));
  expectEqual("failures by code", sortedEntries(books.failuresByCode), sortedEntries(failures));

  for (const job of jobs) {
    const own = videos.filter((v) => v.job_id === job.id);
    const counts = {
      queued: 0,
      processing: 0,
      done: own.filter((v) => v.status === "done").length,
      failed: own.filter((v) => v.status === "failed").length,
    };
    expectEqual(
      `job ${job.id} counts`,
      [job.video_count, job.queued_count, job.processing_count, job.done_count, job.failed_count],
      [own.length, counts.queued, counts.processing, counts.done, counts.failed],
    );
    expectEqual(`job ${job.id} status`, job.status, jobStatus(counts));
    expectEqual(`job ${job.id} credits`, job.credits_charged, sum(own.map((v) => v.credits_charged)));
  }
  const settledClean = jobs.filter((j) => j.status === "done").length;
  const settledWithFailures = jobs.filter((j) => j.status === "failed" || j.status === "partial").length;
  expectEqual(
    "usage jobs (queued, processing, done, failed, with failures)",
    [
      workspace.jobs_queued,
      workspace.jobs_processing,
      workspace.jobs_done,
      workspace.jobs_failed,
      workspace.jobs_with_failures,
    ],
    [0, 0, settledClean, settledWithFailures, settledWithFailures],
  );
  return problems;
}

/** A workspace's whole row, as stored. */
export function workspaceRow(store: Store, workspaceId: string) {
  return store.db
    .selectFrom("workspaces")
    .selectAll()
    .where("id", "=", workspaceId)
    .executeTakeFirstOrThrow();
}

/** A workspace's credit ledger, oldest line first. */
export function ledgerLines(store: Store, workspaceId: string) {
  return store.db
    .selectFrom("credit_ledger")
    .select(["kind", "amount", "balance_after"])
    .where("workspace_id", "=", workspaceId)
    .orderBy("id")
    .execute();
}
