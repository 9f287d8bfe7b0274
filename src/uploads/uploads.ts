// Uploads of a workspace: taking a file in (bounded, measured), listing the pending ones, removing one, and
// the sweep of those no job took within their time. The bytes are in the upload store; rows say what they are.
import type { Readable } from "node:stream";
import type { Plan } from "../domain/plans.js";
import { sql } from "kysely";
import { newId } from "../domain/ids.js";
import { uploadPlatform } from "../domain/upload-videos.js";
import { ApiError } from "../http/api-errors.js";
import type { Store } from "../store/database.js";
import { BoundedUploadBody, UploadStalled, UploadTooLarge } from "./upload-body.js";
import { type MediaFacts, type MediaProbe, UnusableMedia } from "./media-probe.js";
import { type UploadView, uploadView } from "./upload-schemas.js";
import { UploadMedia } from "./upload-media.js";
import type { UploadStore } from "./upload-store.js";

export interface UploadLimits {
  /** How long an upload no job has taken is kept, in ms. */
  readonly retentionMs: number;
  /** How long the body may stop arriving before the upload is cut off, in ms. */
  readonly stallMs: number;
  /** Free space an upload may never take from the store's disk, in bytes. */
  readonly reserveBytes: number;
}

/** A partial file untouched this long has no writer left; a whole file this old without a row is an orphan. */
const abandonedAfterMs = 60 * 60_000;

function megabytes(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MiB`;
}

/** What a failure while the body was read means for the client. */
function receivingError(error: unknown, plan: Plan): unknown {
  if (error instanceof UploadTooLarge) {
    return new ApiError(
      "payload_too_large",
      `The file is over the ${plan.name} plan's upload limit of ${megabytes(plan.uploadBytes)}; nothing was kept.`,
      "body",
    );
  }
  if (error instanceof UploadStalled) {
    return new ApiError(
      "invalid_request",
      `${error.message} The upload was cut off; nothing was kept.`,
      "body",
    );
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOSPC" || code === "EDQUOT") {
    return new ApiError(
      "insufficient_storage",
      "The upload storage filled up; nothing was kept. Try again later.",
    );
  }
  if (code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET" || code === "ECONNABORTED") {
    return new ApiError("invalid_request", "The upload ended before its body did; nothing was kept.", "body");
  }
  return error;
}

/**
 * The body through its bounds. A client that leaves mid-body fails the copy at once (a pipe alone would
 * leave it waiting for the stall limit); the body itself is never destroyed here, so that a refusal can
 * still be answered on its connection.
 */
function boundedBody(body: Readable, limitBytes: number, stallMs: number): BoundedUploadBody {
  const bounded = new BoundedUploadBody(limitBytes, stallMs);
  body.once("error", (error) => bounded.destroy(error));
  body.once("close", () => {
    if (body.readableEnded) return;
    const cut = new Error("The upload ended before its body did.") as NodeJS.ErrnoException;
    cut.code = "ERR_STREAM_PREMATURE_CLOSE";
    bounded.destroy(cut);
  });
  return body.pipe(bounded);
}

export class Uploads {
  /** What a worker reads of an upload a job took: its subtitles or its audio. */
  readonly media: UploadMedia;

  constructor(
    private readonly store: Store,
    private readonly uploadStore: UploadStore,
    private readonly probe: MediaProbe,
    private readonly limits: UploadLimits,
  ) {
    this.media = new UploadMedia(uploadStore, () => probe.ffmpegPath());
  }

  /**
   * Stores `body` for the workspace and measures it. `declaredBytes` (the content-length) is refused at
   * once when over the plan's limit or the free space, before any byte is read.
   */
  async create(workspaceId: string, plan: Plan, body: Readable, declaredBytes?: number): Promise<UploadView> {
    if (plan.uploadBytes === 0) {
      throw new ApiError("plan_limit", `The ${plan.name} plan takes no uploads.`);
    }
    if (declaredBytes !== undefined && declaredBytes > plan.uploadBytes) {
      throw receivingError(new UploadTooLarge(plan.uploadBytes), plan);
    }
    const free = await this.uploadStore.freeBytes();
    const needed = declaredBytes ?? plan.uploadBytes;
    if (free !== null && free - needed < this.limits.reserveBytes) {
      throw new ApiError(
        "insufficient_storage",
        `The upload storage has too little free space for ${megabytes(needed)} now; try again later or send a smaller file.`,
      );
    }
    const id = newId("upl");
    let bytes: number;
    try {
      bytes = await this.uploadStore.write(id, boundedBody(body, plan.uploadBytes, this.limits.stallMs));
    } catch (error) {
      body.resume();
      throw receivingError(error, plan);
    }
    if (bytes === 0) {
      await this.uploadStore.remove(id);
      throw new ApiError("invalid_request", "The request body is empty; send the file as the body.", "body");
    }
    let facts: MediaFacts;
    try {
      facts = await this.measure(id, plan);
      const now = Date.now();
      const row = {
        id,
        workspace_id: workspaceId,
        bytes,
        duration_ms: Math.round(facts.durationSeconds * 1000),
        subtitle_stream: facts.subtitleStream,
        job_id: null,
        created_at: now,
        expires_at: now + this.limits.retentionMs,
      };
      await this.store.db.insertInto("uploads").values(row).execute();
      return uploadView(row);
    } catch (error) {
      await this.uploadStore.remove(id);
      throw error;
    }
  }

  /** The file's facts, or the refusal naming what is wrong with it. */
  private async measure(id: string, plan: Plan): Promise<MediaFacts> {
    const local = await this.uploadStore.localFile(id);
    let facts: MediaFacts;
    try {
      facts = await this.probe.probe(local.path);
    } catch (error) {
      if (!(error instanceof UnusableMedia)) throw error;
      if (error.reason === "not_media") {
        throw new ApiError(
          "unsupported_media_type",
          `${error.message} Send an audio or video file (MP4, MKV, WebM, MP3, M4A, WAV, OGG, FLAC...).`,
        );
      }
      throw new ApiError("invalid_request", error.message, "body");
    } finally {
      await local.release();
    }
    if (facts.durationSeconds > plan.longestVideoMinutes * 60) {
      throw new ApiError(
        "invalid_request",
        `The file is ${Math.ceil(facts.durationSeconds / 60)} minutes long, over the ${plan.name} plan's longest video of ${plan.longestVideoMinutes} minutes.`,
        "body",
      );
    }
    return facts;
  }

  /** The workspace's uploads no job has taken yet, newest first. */
  async list(workspaceId: string, now = Date.now()): Promise<UploadView[]> {
    const rows = await this.store.db
      .selectFrom("uploads")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("job_id", "is", null)
      .where("expires_at", ">", now)
      .orderBy("id", "desc")
      .execute();
    return rows.map(uploadView);
  }

  /** Removes a pending upload of the workspace; 404 for another workspace's, a taken one or none. */
  async remove(workspaceId: string, uploadId: string): Promise<void> {
    const removed = await this.store.db
      .deleteFrom("uploads")
      .where("id", "=", uploadId)
      .where("workspace_id", "=", workspaceId)
      .where("job_id", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (removed === undefined) {
      throw new ApiError("upload_not_found", `No pending upload ${uploadId} in this workspace.`, "upload_id");
    }
    await this.uploadStore.remove(uploadId);
  }

  /**
   * Removes the uploads no job took within their time, the bytes no row describes (a process that died
   * between the two), and the partial files of uploads whose process died; answers how many uploads went.
   */
  async sweep(now = Date.now()): Promise<number> {
    const settled = await this.settledLeftovers();
    for (const id of settled) await this.settled(id);
    const expired = await this.store.db
      .deleteFrom("uploads")
      .where("expires_at", "<=", now)
      .where("job_id", "is", null)
      .returning("id")
      .execute();
    for (const { id } of expired) await this.uploadStore.remove(id);
    const old = await this.uploadStore.sweep(now - abandonedAfterMs, now - abandonedAfterMs);
    if (old.length === 0) return settled.length + expired.length;
    const described = new Set(
      (await this.store.db.selectFrom("uploads").select("id").where("id", "in", old).execute()).map(
        (r) => r.id,
      ),
    );
    const orphans = old.filter((id) => !described.has(id));
    for (const id of orphans) await this.uploadStore.remove(id);
    return settled.length + expired.length + orphans.length;
  }

  /**
   * Removes an upload a job took, its row and its bytes, once its video settled (done, failed or
   * cancelled): the file is kept no longer than it is read.
   */
  async settled(uploadId: string): Promise<void> {
    await this.store.db
      .deleteFrom("uploads")
      .where("id", "=", uploadId)
      .where("job_id", "is not", null)
      .execute();
    await this.uploadStore.remove(uploadId);
  }

  /**
   * Taken uploads whose video settled without its worker removing them (a job cancelled before the video
   * was claimed, a worker that died between settling and removing), or whose job is gone.
   */
  private async settledLeftovers(): Promise<string[]> {
    const rows = await this.store.db
      .selectFrom("uploads")
      .select("uploads.id")
      .where("uploads.job_id", "is not", null)
      .where((eb) =>
        eb.or([
          eb.not(
            eb.exists(eb.selectFrom("jobs").select("jobs.id").whereRef("jobs.id", "=", "uploads.job_id")),
          ),
          eb.exists(
            eb
              .selectFrom("videos")
              .select("videos.id")
              .whereRef("videos.job_id", "=", "uploads.job_id")
              .where("videos.platform_video_id", "=", sql<string>`${uploadPlatform + ":"} || uploads.id`)
              .where("videos.status", "in", ["done", "failed"]),
          ),
        ]),
      )
      .execute();
    return rows.map((row) => row.id);
  }
}
