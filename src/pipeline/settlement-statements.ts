// The statements a settlement runs for each video and job of its batch, prepared once per store (the
// workspace's are in credits/settlement-charges.ts).
import { preparedPerStore } from "../store/prepared-query.js";

// A worker settling hundreds of videos a second spent a good share of its time in Kysely building and
// compiling these same statements again for every video; prepared, each run only fills in the values.

export const writeDone = preparedPerStore<
  {
    rows: string;
    rowCount: number;
    durationSeconds: number;
    chunkCount: number;
    charge: number;
    now: number;
    videoId: string;
    workerId: string;
  },
  never
>((db, { rows, rowCount, durationSeconds, chunkCount, charge, now, videoId, workerId }) =>
  db
    .updateTable("videos")
    .set({
      status: "done",
      rows,
      row_count: rowCount,
      duration_seconds: durationSeconds,
      chunk_count: chunkCount,
      credits_charged: charge,
      lease_owner: null,
      lease_expires_at: null,
      settled_at: now,
    })
    .where("id", "=", videoId)
    .where("lease_owner", "=", workerId)
    .where("status", "=", "processing"),
);

export const writeFailed = preparedPerStore<
  { code: string; message: string; retryable: number; now: number; videoId: string; workerId: string },
  never
>((db, { code, message, retryable, now, videoId, workerId }) =>
  db
    .updateTable("videos")
    .set({
      status: "failed",
      error_code: code,
      error_message: message,
      error_retryable: retryable,
      credits_charged: 0,
      lease_owner: null,
      lease_expires_at: null,
      settled_at: now,
    })
    .where("id", "=", videoId)
    .where("lease_owner", "=", workerId)
    .where("status", "=", "processing"),
);

export interface JobCountsAfter {
  queued_count: number;
  processing_count: number;
  done_count: number;
  failed_count: number;
  video_count: number;
  schema_label: string;
  credits_charged: number;
}

/** Moves videos from a job's `processing` count to `done` and `failed`; `hasFailures` is 1 when some failed. */
function countInJobStatement(withFailures: boolean) {
  return preparedPerStore<
    { settled: number; done: number; failed: number; charge: number; jobId: string },
    JobCountsAfter
  >((db, { settled, done, failed, charge, jobId }) =>
    db
      .updateTable("jobs")
      .set((eb) => ({
        processing_count: eb("processing_count", "-", settled),
        done_count: eb("done_count", "+", done),
        failed_count: eb("failed_count", "+", failed),
        has_failures: withFailures ? 1 : eb.ref("has_failures"),
        credits_charged: eb("credits_charged", "+", charge),
      }))
      .where("id", "=", jobId)
      .returning([
        "queued_count",
        "processing_count",
        "done_count",
        "failed_count",
        "video_count",
        "schema_label",
        "credits_charged",
      ]),
  );
}
export const countInJobWithFailures = countInJobStatement(true);
export const countInJobWithoutFailures = countInJobStatement(false);
