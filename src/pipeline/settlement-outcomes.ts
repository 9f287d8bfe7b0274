// Settlement's pricing and writing step: each video's charge (or refusal) and outcome, in the batch's order.
import type { Transaction } from "kysely";
import {
  type BatchAccount,
  countVideoDone,
  countVideoFailed,
  priceVideo,
} from "../credits/settlement-charges.js";
import { storedRowsText } from "../extraction/stored-rows.js";
import type { Store } from "../store/database.js";
import type { Database } from "../store/tables.js";
import { sealIfKeyed } from "../store/sealed-values.js";
import type { Settlement, SettledVideo, VideoOutcome } from "./settlement.js";
import { writeDone, writeFailed } from "./settlement-statements.js";

/** What a batch adds to one job's counts. */
export interface JobChange {
  readonly workspaceId: string;
  done: number;
  failed: number;
  charge: number;
}

/** The batch's videos that were written, by id, and what they add to their jobs, by job id. */
export interface WrittenOutcomes {
  readonly videos: Map<string, { status: "done" | "failed"; jobId: string }>;
  readonly jobs: Map<string, JobChange>;
}

/** The charge a finished video takes from its workspace's account, or the failure it becomes when the workspace cannot pay. */
function priceOutcome(
  account: BatchAccount,
  outcome: VideoOutcome,
): { charge: number; outcome: VideoOutcome } {
  if (outcome.kind === "failed") return { charge: 0, outcome };
  const price = priceVideo(account, outcome.durationSeconds);
  if ("refusal" in price)
    return { charge: 0, outcome: { kind: "failed", ...price.refusal, retryable: true } };
  return { charge: price.charge, outcome };
}

/**
 * Prices each video against its workspace's account as the videos before it in the batch left it, and
 * writes its outcome and charge. The two go video by video, not as two passes: on SQLite the write is
 * what checks the lease, and a video found lost must not spend credits the next one is priced against.
 */
export async function priceAndWriteOutcomes(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  settlements: readonly Settlement[],
  accounts: ReadonlyMap<string, BatchAccount>,
  now: number,
): Promise<WrittenOutcomes> {
  const written: WrittenOutcomes = { videos: new Map(), jobs: new Map() };
  for (const { video, outcome: proposed } of settlements) {
    const account = accounts.get(video.workspaceId) as BatchAccount;
    const { charge, outcome } = priceOutcome(account, proposed);
    if (!(await writeOutcome(store, trx, workerId, video, outcome, charge, now))) continue;
    written.videos.set(video.videoId, { status: outcome.kind, jobId: video.jobId });
    const job = written.jobs.get(video.jobId) ?? {
      workspaceId: video.workspaceId,
      done: 0,
      failed: 0,
      charge: 0,
    };
    written.jobs.set(video.jobId, job);
    if (outcome.kind === "done") {
      countVideoDone(account, charge);
      job.done++;
      job.charge += charge;
    } else {
      countVideoFailed(account, outcome.code);
      job.failed++;
    }
  }
  return written;
}

/** Writes the video's outcome and charge; false when its lease was lost (another worker settles it). */
async function writeOutcome(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  video: SettledVideo,
  outcome: VideoOutcome,
  charge: number,
  now: number,
): Promise<boolean> {
  const { videoId } = video;
  const written =
    outcome.kind === "done"
      ? await writeDone(store.db).run(trx, {
          rows: sealIfKeyed(video.dataKey, storedRowsText(outcome)),
          rowCount: outcome.rows.length,
          durationSeconds: Math.round(outcome.durationSeconds),
          chunkCount: outcome.chunkCount,
          charge,
          now,
          videoId,
          workerId,
        })
      : await writeFailed(store.db).run(trx, {
          code: outcome.code,
          message: outcome.message,
          retryable: outcome.retryable ? 1 : 0,
          now,
          videoId,
          workerId,
        });
  return (written.numAffectedRows ?? 0n) > 0n;
}
