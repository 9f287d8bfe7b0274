// The uploads a submission names (`videos` elements `upload:<upload_id>`, contract section 13): checked
// before the job is written, so that each refusal names its element, and bound to the job in the job's own
// transaction, so that two jobs naming one upload cannot both take it.
import type { Transaction } from "kysely";
import type { TranscribeMode } from "../domain/transcribe-mode.js";
import { uploadIdOf } from "../domain/upload-videos.js";
import { ApiError } from "../http/api-errors.js";
import type { Store } from "../store/database.js";
import type { Database } from "../store/tables.js";

/** An upload a submission names, and where in `videos` it does. */
export interface SubmittedUpload {
  readonly index: number;
  readonly uploadId: string;
}

/** The uploads among a submission's video ids (read by domain/submitted-videos.ts), in order. */
export function submittedUploads(videoIds: readonly string[]): SubmittedUpload[] {
  const uploads: SubmittedUpload[] = [];
  videoIds.forEach((videoId, index) => {
    const uploadId = uploadIdOf(videoId);
    if (uploadId !== null) uploads.push({ index, uploadId });
  });
  return uploads;
}

function refusal(upload: SubmittedUpload, problem: string): ApiError {
  const element = `videos[${upload.index}]`;
  return new ApiError(
    "invalid_request",
    `\`${element}\` names upload ${upload.uploadId}, ${problem}`,
    element,
  );
}

const missing =
  "which this workspace does not have: it was deleted, or not used within its retention (GET /v1/uploads lists the workspace's unused uploads).";

/**
 * Refuses the first upload the job cannot take: not the workspace's (another workspace's is not found
 * either), already taken by a job, past its retention, or without captions or speech-to-text to read it.
 */
export async function checkSubmittedUploads(
  store: Store,
  workspaceId: string,
  uploads: readonly SubmittedUpload[],
  transcribe: TranscribeMode,
  transcriptionAvailable: boolean,
  now = Date.now(),
): Promise<void> {
  if (uploads.length === 0) return;
  const rows = await store.db
    .selectFrom("uploads")
    .select(["id", "job_id", "subtitle_stream", "expires_at"])
    .where("workspace_id", "=", workspaceId)
    .where(
      "id",
      "in",
      uploads.map((upload) => upload.uploadId),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const upload of uploads) {
    const row = byId.get(upload.uploadId);
    if (row === undefined) throw refusal(upload, missing);
    if (row.job_id !== null) {
      throw refusal(
        upload,
        `which job ${row.job_id} already took; an upload is read by one job only. Upload the file again for another job.`,
      );
    }
    if (Number(row.expires_at) <= now) throw refusal(upload, missing);
    if (row.subtitle_stream === null && transcribe !== "never" && !transcriptionAvailable) {
      throw refusal(
        upload,
        "whose file has no subtitle stream, and this server has no speech-to-text configured (VIDROWS_TRANSCRIBE_BASE_URL or VIDROWS_TRANSCRIBE_MODEL) to hear it; send a file with subtitles, or ask the operator to set speech-to-text up.",
      );
    }
  }
}

/**
 * Binds the uploads to the job inside its transaction; a refusal (and the transaction's end) when another
 * job took one since they were checked. A bound upload is no longer pending, so no retention deletes it.
 */
export async function bindUploads(
  trx: Transaction<Database>,
  workspaceId: string,
  jobId: string,
  uploads: readonly SubmittedUpload[],
  now: number,
): Promise<void> {
  if (uploads.length === 0) return;
  const bound = await trx
    .updateTable("uploads")
    .set({ job_id: jobId })
    .where("workspace_id", "=", workspaceId)
    .where("job_id", "is", null)
    .where("expires_at", ">", now)
    .where(
      "id",
      "in",
      uploads.map((upload) => upload.uploadId),
    )
    .returning("id")
    .execute();
  const taken = new Set(bound.map((row) => row.id));
  const lost = uploads.find((upload) => !taken.has(upload.uploadId));
  if (lost !== undefined) {
    throw refusal(lost, "which another job took, or which was removed, while this one was submitted.");
  }
}
