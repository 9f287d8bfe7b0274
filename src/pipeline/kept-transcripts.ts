// A workspace's transcripts kept for its later jobs of the same videos: read once from the platform or
// transcribed once, then reused for `VIDROWS_TRANSCRIPT_RETENTION_HOURS`, sealed under a key of their own
// and erased from the database's files as handed-over rows are once their time is past.
import { uploadIdOf } from "../domain/upload-videos.js";
import { randomBytes } from "node:crypto";
import type { Transcript } from "../domain/transcript.js";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import { newDataKey, openStored, seal } from "../store/sealed-values.js";
import type { ClaimedVideo } from "./claims.js";
import type { PageIdentity } from "./video-outcomes.js";

/** Where a kept transcript came from when it was first read. */
export type KeptSource = "captions" | "transcription";

/** A transcript as kept: its words, where they came from, and who a page of another platform turned out to be. */
export interface KeptWords {
  readonly transcript: Transcript;
  readonly source: KeptSource;
  readonly page?: PageIdentity;
}

/** Told which key partitions (PostgreSQL) lost keys, so that the deleted keys leave the files. */
export type AfterDeletion = (partitions: readonly string[]) => void;

/** The most transcripts one sweep deletes; a larger backlog goes at the next sweeps. */
const sweepBatch = 500;

/**
 * Which kept transcript a video may reuse: the same video, `language` and `transcribe` choice (a job
 * that asks for another language, or for speech-to-text, reads afresh).
 */
export function lookupOf(video: Pick<ClaimedVideo, "videoId" | "language" | "transcribe">): string {
  return JSON.stringify([video.videoId, video.language ?? null, video.transcribe]);
}

/** A stored transcript read back, or undefined when it is not one (never trusted as it comes). */
function keptWordsOf(text: string): KeptWords | undefined {
  try {
    const value = JSON.parse(text) as KeptWords;
    const cues = value?.transcript?.cues;
    if (!Array.isArray(cues) || typeof value.transcript.durationSeconds !== "number") return undefined;
    if (value.source !== "captions" && value.source !== "transcription") return undefined;
    return value;
  } catch {
    return undefined;
  }
}

export class KeptTranscripts {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    /** How long a transcript is kept; 0 keeps none. */
    private readonly retentionMs: number,
    private readonly afterDeletion: AfterDeletion = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** The newest transcript the video's workspace kept for it, unless its job asked to read afresh. */
  async find(video: ClaimedVideo): Promise<KeptWords | undefined> {
    if (this.retentionMs === 0 || !video.reuse) return undefined;
    const kept = await this.store.db
      .selectFrom("kept_transcripts")
      .innerJoin("transcript_keys", "transcript_keys.transcript_id", "kept_transcripts.id")
      .select(["kept_transcripts.transcript", "transcript_keys.data_key"])
      .where("kept_transcripts.workspace_id", "=", video.workspaceId)
      .where("kept_transcripts.lookup", "=", lookupOf(video))
      .where("kept_transcripts.expires_at", ">", this.now())
      .orderBy("kept_transcripts.created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (kept === undefined) return undefined;
    return keptWordsOf(openStored(kept.data_key, kept.transcript));
  }

  /** Keeps the video's transcript for its workspace's later jobs, sealed under a new key of its own. */
  async keep(video: ClaimedVideo, words: KeptWords): Promise<void> {
    if (this.retentionMs === 0 || words.transcript.cues.length === 0) return;
    const now = this.now();
    const id = `trn_${randomBytes(12).toString("hex")}`;
    const dataKey = newDataKey();
    const stored: KeptWords = {
      transcript: words.transcript,
      source: words.source,
      ...(words.page ? { page: words.page } : {}),
    };
    await this.store.db.transaction().execute(async (trx) => {
      await trx.insertInto("transcript_keys").values({ transcript_id: id, data_key: dataKey }).execute();
      await trx
        .insertInto("kept_transcripts")
        .values({
          id,
          workspace_id: video.workspaceId,
          lookup: lookupOf(video),
          source: words.source,
          transcript: seal(dataKey, JSON.stringify(stored)),
          created_at: now,
          expires_at: now + this.retentionMs,
        })
        .execute();
    });
  }

  /** Sweeps every `intervalMs` until `stopSweeping`; a failed sweep is `onError`'s and the next one tries again. */
  startSweeping(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => {
      this.sweep().catch(onError);
    }, intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /**
   * Deletes the transcripts whose time is past, with their keys, and has the deletion erased from the
   * files (store/storage-eraser.ts); answers how many it deleted.
   */
  async sweep(): Promise<number> {
    const expired = await this.store.db
      .selectFrom("kept_transcripts")
      .select("id")
      .where("expires_at", "<=", this.now())
      .limit(sweepBatch)
      .execute();
    if (expired.length === 0) return 0;
    const ids = expired.map((row) => row.id);
    const partitions = await this.store.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("kept_transcripts").where("id", "in", ids).execute();
      const keys = await trx
        .deleteFrom("transcript_keys")
        .where("transcript_id", "in", ids)
        .returning(databaseSql(this.store.dialect).vocabulary.rowPartition.as("partition"))
        .execute();
      return [...new Set(keys.flatMap((key) => (key.partition === null ? [] : [key.partition])))];
    });
    this.afterDeletion(partitions);
    return ids.length;
  }
}

/** Where a done video's words came from, as `GET /v1/{job_id}/videos` says. */
export type TranscriptSource = KeptSource | "reused";

/** A video's words and where they came from. */
export interface SourcedWords {
  readonly transcript: Transcript;
  readonly transcribed: boolean;
  readonly source: TranscriptSource;
}

/**
 * The video's words: the transcript its workspace kept, when there is one and its job may reuse it (no
 * request to the platform, no transcription, priced as captions), else `read` them and keep them. `named`
 * is told who a page of another platform is, from the kept transcript too. Keeping is best effort: a
 * failure to keep is `onKeepFailed`'s to log, and the video goes on.
 */
export async function sourcedWordsOf(
  kept: KeptTranscripts,
  video: ClaimedVideo,
  read: (
    named: (identity: PageIdentity) => void,
  ) => Promise<{ transcript: Transcript; transcribed: boolean }>,
  named: (identity: PageIdentity) => void,
  onKeepFailed: (error: unknown) => void,
): Promise<SourcedWords> {
  // An upload is read by one job only, and its words are kept no longer than its file: never kept here.
  if (uploadIdOf(video.videoId) !== null) {
    const words = await read(named);
    return { ...words, source: words.transcribed ? "transcription" : "captions" };
  }
  const reused = await kept.find(video);
  if (reused !== undefined) {
    if (reused.page) named(reused.page);
    return { transcript: reused.transcript, transcribed: false, source: "reused" };
  }
  let page: PageIdentity | undefined;
  const words = await read((identity) => {
    page = identity;
    named(identity);
  });
  const source: KeptSource = words.transcribed ? "transcription" : "captions";
  await kept
    .keep(video, { transcript: words.transcript, source, ...(page ? { page } : {}) })
    .catch(onKeepFailed);
  return { ...words, source };
}
