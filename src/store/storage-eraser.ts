// Removes deleted data from the database's files soon after handovers, batched and off the request path.
import { handovers } from "../metrics.js";
import type { FastifyBaseLogger } from "fastify";
import type { Store } from "./database.js";
import { rewriteKeyPartitions } from "./postgres/key-partition-rewrite.js";
import { truncateWriteAheadLog } from "./sqlite/write-ahead-log-truncation.js";

/**
 * How long after a handover its erasure runs: the handovers of those seconds share one. On PostgreSQL
 * a steady stream of handovers then rewrites each key partition at most every couple of seconds.
 */
const batchDelayMs = 2000;
/** The wait before trying again when a lock stood in the way. */
const retryDelayMs = 250;
/** Past this, a failing erasure stops retrying on its own (the store may be closed) until the next handover. */
const giveUpAfterMs = 60_000;

/** A partition's own name, at the end of its possibly schema-qualified name; safe to put into SQL as is. */
const keyPartitionName = /\b(?:job|transcript)_keys_\d+$/;

/**
 * A handover deletes a job's rows and submitted URLs in its transaction; what is deleted can still sit
 * in the files, and this removes it within a couple of seconds, for every handover of the moment at once.
 *
 * - SQLite zeroes deleted content in place (`secure_delete`, store/sqlite/open-sqlite.ts), but the
 *   write-ahead log keeps the earlier copies of the pages, which a truncating checkpoint removes
 *   (sqlite/write-ahead-log-truncation.ts).
 * - PostgreSQL keeps deleted rows' bytes in its table files, so values are sealed under a key per job
 *   (store/sealed-values.ts) and the handover deletes the key; rewriting the key's partition of
 *   `job_keys` removes the key from the files (postgres/key-partition-rewrite.ts).
 *
 * Either half throws when a lock stood in the way; the eraser then tries again shortly.
 */
export class StorageEraser {
  /** SQLite: whether a checkpoint is owed. PostgreSQL: the key partitions to rewrite. */
  private owed = false;
  private readonly partitions = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  /** When the oldest erasure still owed was asked for (to warn when it takes too long). */
  private owedSince = 0;

  constructor(
    private readonly store: Store,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /**
   * Called once a handover has committed; `partition` is the name PostgreSQL gave the key's partition
   * (`tableoid::regclass`, schema-qualified when off the search path). Never throws: the handover is done.
   */
  afterHandover(partition?: string): void {
    handovers.inc();
    this.afterDeletion(partition === undefined ? [] : [partition], "job_keys");
  }

  /**
   * Called once other sealed data was deleted with its keys (expired kept transcripts: `transcript_keys`),
   * naming the keys' partitions as `afterHandover` does; `table` is rewritten whole when a name is unexpected.
   */
  afterDeletion(partitions: readonly string[], table = "transcript_keys"): void {
    for (const partition of partitions) {
      // Named as every other statement names tables, by the search path; an unexpected name rewrites them all.
      this.partitions.add(keyPartitionName.exec(partition)?.[0] ?? table);
    }
    if (!this.owed) this.owedSince = Date.now();
    this.owed = true;
    this.schedule(batchDelayMs);
  }

  /** Stops the timer and runs what is still owed, so that a handover just before shutdown is erased too. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.owed) await this.run();
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.running || this.closed) return;
    if (delayMs === retryDelayMs && Date.now() - this.owedSince > giveUpAfterMs) {
      this.log?.error(
        "gave up erasing handed-over data from the files for now; the next handover tries again",
      );
      this.owedSince = Date.now();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.run().finally(() => {
        this.running = undefined;
        // Handovers that came while it ran are erased by the next round.
        if (this.owed) this.schedule(retryDelayMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    const waitedMs = Date.now() - this.owedSince;
    const startedAt = performance.now();
    try {
      await this.eraseOnce();
      const ms = Math.round((performance.now() - startedAt) * 10) / 10;
      this.log?.debug({ ms, waitedMs }, "erased handed-over data from the database's files");
    } catch (error) {
      const level = waitedMs > 5000 ? "warn" : "debug";
      this.log?.[level](
        { err: error, waitedMs },
        "could not yet erase handed-over data from the files; trying again",
      );
    }
  }

  /** One attempt; throws when a lock stood in the way, leaving what it did not do owed. */
  private async eraseOnce(): Promise<void> {
    this.owed = false;
    const left = new Set(this.partitions);
    this.partitions.clear();
    try {
      if (this.store.dialect === "sqlite") await truncateWriteAheadLog(this.store.db);
      else await rewriteKeyPartitions(this.store.db, left);
    } catch (error) {
      this.owed = true;
      for (const partition of left) this.partitions.add(partition);
      throw error;
    }
  }
}
