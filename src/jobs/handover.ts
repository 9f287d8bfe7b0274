// The one-time handover of a settled job's rows, in two phases: a read claims the rows for its answer, and
// they are deleted only once that answer has been written whole. An answer that never got out leaves them.
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Store } from "../store/database.js";
import { openStored } from "../store/sealed-values.js";
import type { StorageEraser } from "../store/storage-eraser.js";
import type { VideoRow } from "../store/tables.js";

/** How long a claim outlives its last renewal by default: a process that died mid-answer frees the rows within this. */
export const defaultHandoverClaimSeconds = 60;

/** One read's hold on a job's rows while its answer is written. */
export interface HandoverClaim {
  /** The job's videos, in order, their rows and submitted URLs readable. */
  readonly videos: VideoRow[];
  /** Extends the claim by its full length; false once another read holds it (this one lapsed). */
  renew(): Promise<boolean>;
  /** The answer was written whole: the rows, URLs and data key are deleted and the job handed over. */
  complete(): Promise<void>;
  /** The answer did not get out: the rows stay, and the next read may claim them. */
  release(): Promise<void>;
}

/**
 * Exactly one read holds a job's rows at a time: the claim is a conditional update that succeeds only
 * while the job is not handed over and no live claim stands. Completing and releasing are conditional on
 * the claim's own token, so a read whose claim lapsed and was taken by another can change nothing.
 */
export class Handovers {
  /** Completions and releases still running, so that shutdown waits for them before closing the store. */
  private readonly settling = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly eraser: StorageEraser,
    /** How long a claim lasts unless renewed. */
    readonly claimMs = defaultHandoverClaimSeconds * 1000,
  ) {}

  /** Claims the rows of a settled job for one answer; undefined when handed over or claimed by a live read. */
  async claim(jobId: string, now = Date.now()): Promise<HandoverClaim | undefined> {
    const token = randomBytes(12).toString("base64url");
    const held =
      this.store.dialect === "postgres"
        ? await this.claimPostgres(jobId, token, now)
        : await this.claimSqlite(jobId, token, now);
    if (!held) return undefined;
    const { videos: stored, dataKey } = held;
    const videos = stored.map((video) => ({
      ...video,
      rows: video.rows === null ? null : openStored(dataKey, video.rows),
      submitted_url: video.submitted_url === null ? null : openStored(dataKey, video.submitted_url),
    }));
    return {
      videos,
      renew: () => this.renew(jobId, token),
      complete: () => this.complete(jobId, token),
      release: () => this.release(jobId, token),
    };
  }

  /** Runs `settlement` (a completion or a release) so that `drain` waits for it. */
  track(settlement: Promise<void>): void {
    this.settling.add(settlement);
    void settlement.finally(() => this.settling.delete(settlement));
  }

  /** Waits for every completion and release under way (called before the store closes). */
  async drain(): Promise<void> {
    while (this.settling.size > 0) await Promise.allSettled([...this.settling]);
  }

  /** SQLite: the claim and the read of the videos in one write transaction, so nothing comes between them. */
  private async claimSqlite(jobId: string, token: string, now: number) {
    return this.store.db.transaction().execute(async (trx) => {
      const won = await trx
        .updateTable("jobs")
        .set({ handover_claim: token, handover_claimed_until: now + this.claimMs })
        .where("id", "=", jobId)
        .where("handed_over_at", "is", null)
        .where((eb) =>
          eb.or([eb("handover_claimed_until", "is", null), eb("handover_claimed_until", "<=", now)]),
        )
        .executeTakeFirst();
      if (won.numUpdatedRows === 0n) return undefined;
      const videos = await trx
        .selectFrom("videos")
        .selectAll()
        .where("job_id", "=", jobId)
        .orderBy("position")
        .execute();
      // Only PostgreSQL jobs have data keys (see store/sealed-values.ts).
      return { videos, dataKey: null };
    });
  }

  /** PostgreSQL: the claim, the videos and the job's data key in one statement (one round trip). */
  private async claimPostgres(jobId: string, token: string, now: number) {
    const { rows } = await sql<VideoRow & { data_key: Buffer | null }>`
      with claimed as (
        update jobs set handover_claim = ${token}, handover_claimed_until = ${now + this.claimMs}
        where id = ${jobId} and handed_over_at is null
          and (handover_claimed_until is null or handover_claimed_until <= ${now})
        returning id
      )
      select videos.*, job_keys.data_key
      from claimed
      join videos on videos.job_id = claimed.id
      left join job_keys on job_keys.job_id = claimed.id
      order by videos.position`.execute(this.store.db);
    if (rows.length === 0) return undefined;
    const videos = rows.map(({ data_key: _key, ...video }) => video);
    return { videos, dataKey: rows[0]?.data_key ?? null };
  }

  private async renew(jobId: string, token: string): Promise<boolean> {
    const renewed = await this.store.db
      .updateTable("jobs")
      .set({ handover_claimed_until: Date.now() + this.claimMs })
      .where("id", "=", jobId)
      .where("handover_claim", "=", token)
      .executeTakeFirst();
    return renewed.numUpdatedRows > 0n;
  }

  private async release(jobId: string, token: string): Promise<void> {
    await this.store.db
      .updateTable("jobs")
      .set({ handover_claim: null, handover_claimed_until: null })
      .where("id", "=", jobId)
      .where("handover_claim", "=", token)
      .execute();
  }

  /**
   * Records the handover and deletes the rows, the submitted URLs and (PostgreSQL) the job's data key,
   * then tells the eraser, which removes them from the database's files within seconds.
   */
  private async complete(jobId: string, token: string): Promise<void> {
    const now = Date.now();
    const done =
      this.store.dialect === "postgres"
        ? await this.completePostgres(jobId, token, now)
        : await this.completeSqlite(jobId, token, now);
    if (done) this.eraser.afterHandover(done.keyPartition);
  }

  private async completeSqlite(jobId: string, token: string, now: number) {
    return this.store.db.transaction().execute(async (trx) => {
      const won = await trx
        .updateTable("jobs")
        .set({ handed_over_at: now, handover_claim: null, handover_claimed_until: null })
        .where("id", "=", jobId)
        .where("handover_claim", "=", token)
        .executeTakeFirst();
      if (won.numUpdatedRows === 0n) return undefined;
      await trx
        .updateTable("videos")
        .set({ rows: null, submitted_url: null })
        .where("job_id", "=", jobId)
        .execute();
      return { keyPartition: undefined };
    });
  }

  /**
   * One statement: the job marked handed over, its values cleared and its key deleted, each part only
   * if this read still holds the claim. The key's partition is answered so that only it is rewritten.
   */
  private async completePostgres(jobId: string, token: string, now: number) {
    const { rows } = await sql<{ completed: boolean; key_partition: string | null }>`
      with completed as (
        update jobs set handed_over_at = ${now}, handover_claim = null, handover_claimed_until = null
        where id = ${jobId} and handover_claim = ${token}
        returning id
      ),
      cleared as (
        update videos set rows = null, submitted_url = null
        where job_id = ${jobId} and exists (select 1 from completed)
      ),
      job_key as (
        delete from job_keys
        where job_id = ${jobId} and exists (select 1 from completed)
        returning tableoid::regclass::text as key_partition
      )
      select exists (select 1 from completed) as completed,
        (select key_partition from job_key limit 1) as key_partition`.execute(this.store.db);
    const [row] = rows;
    if (!row?.completed) return undefined;
    return { keyPartition: row.key_partition ?? undefined };
  }
}
