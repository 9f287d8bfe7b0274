// Settlement's pricing step: each video's charge (or refusal) and outcome, in the batch's order.
import {
  type BatchAccount,
  countVideoDone,
  countVideoFailed,
  priceVideo,
} from "../credits/settlement-charges.js";
import { storedRowsText } from "../extraction/stored-rows.js";
import { sealIfKeyed } from "../store/sealed-values.js";
import type { Settlement, SettledVideo, VideoOutcome } from "./video-outcomes.js";
import type { OutcomeRecord } from "../store/settlement-sql.js";

/** What a batch adds to one job's counts. */
export interface JobChange {
  readonly workspaceId: string;
  done: number;
  failed: number;
  charge: number;
}

/**
 * The batch priced: its held videos' outcomes by id, what they add to their jobs by job id, and each
 * video's outcome and charge as the batch's write takes it.
 */
export interface PricedBatch {
  readonly videos: Map<string, { status: "done" | "failed"; jobId: string }>;
  readonly jobs: Map<string, JobChange>;
  readonly records: OutcomeRecord[];
}

/** The charge a finished video takes from its workspace's account, or the failure it becomes when the workspace cannot pay. */
function priceOutcome(
  account: BatchAccount,
  outcome: VideoOutcome,
): { charge: number; outcome: VideoOutcome } {
  if (outcome.kind === "failed") return { charge: 0, outcome };
  const price = priceVideo(account, outcome.durationSeconds, outcome.transcribed ?? false);
  if ("refusal" in price)
    return { charge: 0, outcome: { kind: "failed", ...price.refusal, retryable: true, page: outcome.page } };
  return { charge: price.charge, outcome };
}

/**
 * Prices each held video against its workspace's account as the videos before it in the batch left
 * it, in the batch's order, so each video costs what it would cost settling alone; counts it in its
 * account and its job. `held` holds only videos whose lease was checked under the batch's locks, so
 * every one of them is then written.
 */
export function priceOutcomes(
  held: readonly Settlement[],
  accounts: ReadonlyMap<string, BatchAccount>,
): PricedBatch {
  const priced: PricedBatch = { videos: new Map(), jobs: new Map(), records: [] };
  for (const { video, outcome: proposed } of held) {
    const account = accounts.get(video.workspaceId) as BatchAccount;
    const { charge, outcome } = priceOutcome(account, proposed);
    priced.records.push(recordOf(video, outcome, charge));
    priced.videos.set(video.rowId, { status: outcome.kind, jobId: video.jobId });
    const job = priced.jobs.get(video.jobId) ?? {
      workspaceId: video.workspaceId,
      done: 0,
      failed: 0,
      charge: 0,
    };
    priced.jobs.set(video.jobId, job);
    if (outcome.kind === "done") {
      countVideoDone(account, charge);
      job.done++;
      job.charge += charge;
    } else {
      countVideoFailed(account, outcome.code);
      job.failed++;
    }
  }
  return priced;
}

/** The video's outcome and charge as the batch's write takes them; its rows sealed when its job has a key. */
function recordOf(video: SettledVideo, outcome: VideoOutcome, charge: number): OutcomeRecord {
  return outcome.kind === "done"
    ? {
        id: video.rowId,
        status: "done",
        platform_video_id: outcome.page?.videoId ?? null,
        rows: sealIfKeyed(video.dataKey, storedRowsText(outcome, outcome.page?.pageUrl)),
        row_count: outcome.rows.length,
        duration_seconds: Math.round(outcome.durationSeconds),
        chunk_count: outcome.chunkCount,
        transcript_source: outcome.transcriptSource ?? null,
        credits_charged: charge,
        error_code: null,
        error_message: null,
        error_retryable: null,
      }
    : {
        id: video.rowId,
        status: "failed",
        platform_video_id: outcome.page?.videoId ?? null,
        rows: null,
        row_count: null,
        duration_seconds: null,
        chunk_count: null,
        transcript_source: null,
        credits_charged: 0,
        error_code: outcome.code,
        error_message: outcome.message,
        error_retryable: outcome.retryable ? 1 : 0,
      };
}
