// The one-time handover of a settled job's rows, in two phases: a read claims the rows for its answer, and
// they are deleted only once that answer has been written whole. An answer that never got out leaves them.
import { randomBytes } from "node:crypto";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import type { HandoverSql } from "../store/handover-sql.js";
import { openStored } from "../store/sealed-values.js";
import type { StorageEraser } from "../store/storage-eraser.js";
import type { VideoRow } from "../store/tables.js";

/** How long a claim outlives its last renewal by default: a process that died mid-answer frees the rows within this. */
export const defaultHandoverClaimSeconds = 60;

/** One read's hold on a job's rows while its answer is written. */
export interface HandoverClaim {
  readonly jobId: string;
  /** The job's videos, in order, their rows and submitted URLs readable. */
  readonly videos: VideoRow[];
  /**
   * A whole answer's reset already put these rows back once: this answer, once written whole, hands
   * them over for good, whatever the connection does next.
   */
  readonly final: boolean;
  /** Extends the claim by its full length; false once another read holds it (this one lapsed). */
  renew(): Promise<boolean>;
  /**
   * The answer was written whole: the rows, URLs and data key are deleted and the job handed over.
   * Answers false when this read no longer held the claim (it lapsed and another took it).
   */
  complete(): Promise<boolean>;
  /** The answer did not get out: the rows stay, and the next read may claim them. */
  release(): Promise<void>;
  /**
   * The answer was written whole but the connection was reset right after: the rows stay for the next
   * read, whose claim is final. Answers false when this read no longer held the claim.
   */
  putBack(): Promise<boolean>;
}

/** Why a read could not claim a settled job's rows: another read's answer holds them, or they were handed over. */
export type ClaimRefusal = { readonly refused: "held" | "handed_over" };

/**
 * Exactly one read holds a job's rows at a time: the claim is a conditional update that succeeds only
 * while the job is not handed over and no live claim stands. Completing and releasing are conditional on
 * the claim's own token, so a read whose claim lapsed and was taken by another can change nothing.
 */
export class Handovers {
  /** Completions and releases still running, so that shutdown waits for them before closing the store. */
  private readonly settling = new Set<Promise<void>>();
  /** The claim and the completion as the store's database runs them (store/<database>/handover-sql.ts). */
  private readonly sql: HandoverSql;

  constructor(
    private readonly store: Store,
    private readonly eraser: StorageEraser,
    /** How long a claim lasts unless renewed. */
    readonly claimMs = defaultHandoverClaimSeconds * 1000,
  ) {
    this.sql = databaseSql(store.dialect).handover;
  }

  /** Claims the rows of a settled job for one answer; refused when handed over or claimed by a live read. */
  async claim(jobId: string, now = Date.now()): Promise<HandoverClaim | ClaimRefusal> {
    const token = randomBytes(12).toString("base64url");
    const held = await this.sql.claim(this.store.db, { jobId, token, now, until: now + this.claimMs });
    if (!held) return { refused: await this.refusalOf(jobId) };
    const { videos: stored, dataKey, final } = held;
    const videos = stored.map((video) => ({
      ...video,
      rows: video.rows === null ? null : openStored(dataKey, video.rows),
      submitted_url: video.submitted_url === null ? null : openStored(dataKey, video.submitted_url),
    }));
    return {
      jobId,
      videos,
      final,
      renew: () => this.renew(jobId, token),
      complete: () => this.complete(jobId, token),
      release: () => this.release(jobId, token),
      putBack: () => this.putBack(jobId, token),
    };
  }

  /**
   * Read after a refused claim, so it may see a later moment: a claim that was standing may have
   * completed since, and then the read answers as after the handover, which by then is the truth.
   */
  private async refusalOf(jobId: string): Promise<"held" | "handed_over"> {
    const job = await this.store.db
      .selectFrom("jobs")
      .select("handed_over_at")
      .where("id", "=", jobId)
      .executeTakeFirst();
    return job !== undefined && job.handed_over_at === null ? "held" : "handed_over";
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

  private async renew(jobId: string, token: string): Promise<boolean> {
    const renewed = await this.store.db
      .updateTable("jobs")
      .set({ handover_claimed_until: Date.now() + this.claimMs })
      .where("id", "=", jobId)
      .where("handover_claim", "=", token)
      .executeTakeFirst();
    return renewed.numUpdatedRows > 0n;
  }

  /** Only a claim that is not final gets here (jobs/handover-delivery.ts); the mark makes the next one final. */
  private async putBack(jobId: string, token: string): Promise<boolean> {
    const returned = await this.store.db
      .updateTable("jobs")
      .set({ handover_claim: null, handover_claimed_until: null, handover_returned_at: Date.now() })
      .where("id", "=", jobId)
      .where("handover_claim", "=", token)
      .where("handover_returned_at", "is", null)
      .executeTakeFirst();
    return returned.numUpdatedRows > 0n;
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
  private async complete(jobId: string, token: string): Promise<boolean> {
    const now = Date.now();
    const done = await this.sql.complete(this.store.db, { jobId, token, now });
    if (done) this.eraser.afterHandover(done.keyPartition);
    return done !== undefined;
  }
}
