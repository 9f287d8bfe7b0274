// SQLite: the short write transactions asked for at the same moment share one commit.
import { CompiledQuery, type Kysely, type Transaction } from "kysely";
import type { Database } from "../tables.js";

// Each run's savepoint, as SQL compiled once: Kysely's savepoint builder compiles its statement and
// makes a transaction object of its own on every call, which cost more than SQLite takes to run them.
const savepoint = CompiledQuery.raw("savepoint grouped_write");
const rollbackToSavepoint = CompiledQuery.raw("rollback to savepoint grouped_write");
const releaseSavepoint = CompiledQuery.raw("release savepoint grouped_write");

/** A short write transaction's work; it must use only `trx` (see `GroupedWrites.run`). */
export type WriteWork<T> = (trx: Transaction<Database>) => Promise<T>;

interface Waiting {
  readonly work: WriteWork<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export interface GroupedWritesOptions {
  /** The most transactions one commit carries; the rest wait for the next (default 64). */
  readonly maxGroup?: number;
}

/**
 * A SQLite commit costs far more than the few rows a request writes: it appends every page the
 * transaction touched to the WAL and syncs it, 150-350 µs of CPU for a 10-video job, even on a RAM
 * disk. SQLite has one writer, so requests that arrive together would commit one after another.
 * Instead, the transactions asked for in one turn of the event loop run in one database transaction,
 * each inside a savepoint of its own, and are committed once. One that fails rolls back to its
 * savepoint and fails alone; the others commit. Nobody hears of success before the commit, so each
 * caller's write is as durable as with a transaction of its own, and it waits at most one turn longer.
 */
export class GroupedCommits {
  private readonly waiting: Waiting[] = [];
  private readonly maxGroup: number;
  private groups = 0;

  constructor(
    private readonly db: Kysely<Database>,
    options: GroupedWritesOptions = {},
  ) {
    this.maxGroup = options.maxGroup ?? 64;
  }

  /** How many grouped transactions have been committed (each carrying one or more runs). */
  get committedGroups(): number {
    return this.groups;
  }

  /** Runs `work` in the next group's transaction and answers once that is committed. */
  run<T>(work: WriteWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // setImmediate runs after the current turn's I/O callbacks: every request read in this turn
      // has asked for its write by then.
      if (this.waiting.length === 1) setImmediate(() => void this.commitWaiting());
    });
  }

  private async commitWaiting(): Promise<void> {
    const group = this.waiting.splice(0, this.maxGroup);
    if (this.waiting.length > 0) setImmediate(() => void this.commitWaiting());
    let outcomes: Outcome[];
    try {
      outcomes = await this.commitTogether(group);
    } catch (error) {
      // The transaction itself failed (the commit, a lost savepoint): nothing of the group was kept.
      for (const entry of group) entry.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const entry = group[index] as Waiting;
      if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
  }

  private async commitTogether(group: readonly Waiting[]): Promise<Outcome[]> {
    const trx = await this.db.startTransaction().execute();
    const outcomes: Outcome[] = [];
    try {
      for (const entry of group) {
        await trx.executeQuery(savepoint);
        try {
          outcomes.push({ ok: true, value: await entry.work(trx) });
        } catch (error) {
          outcomes.push({ ok: false, error });
          // A full disk or an I/O error can end the whole transaction, savepoint and all: then the group
          // fails with that error, not with the "no such savepoint" that would hide it.
          await trx.executeQuery(rollbackToSavepoint).catch(() => {
            throw error;
          });
        }
        await trx.executeQuery(releaseSavepoint);
      }
      await trx.commit().execute();
      this.groups += 1;
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      throw error;
    }
    return outcomes;
  }
}
