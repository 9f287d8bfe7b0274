// Short write transactions; on SQLite, those asked for at the same moment share one commit.
import type { Store } from "./database.js";
import { GroupedCommits, type GroupedWritesOptions, type WriteWork } from "./sqlite/grouped-commits.js";

/**
 * Runs short write transactions. On SQLite, one writer for the whole file, those asked for in one turn
 * of the event loop share one commit (sqlite/grouped-commits.ts says why and how). PostgreSQL commits
 * concurrent transactions on separate connections and groups their log flushes itself, so there each
 * `run` is simply a transaction of its own.
 */
export class GroupedWrites {
  private readonly commits: GroupedCommits | undefined;

  /** `groupCommits: false` (VIDROWS_GROUPED_COMMITS=0): on SQLite too, each run commits on its own. */
  constructor(
    private readonly store: Store,
    options: GroupedWritesOptions & { readonly groupCommits?: boolean } = {},
  ) {
    const grouped = store.dialect === "sqlite" && (options.groupCommits ?? true);
    this.commits = grouped ? new GroupedCommits(store.db, options) : undefined;
  }

  /** SQLite: how many grouped transactions have been committed (each carrying one or more runs). */
  get committedGroups(): number {
    return this.commits?.committedGroups ?? 0;
  }

  /**
   * Runs `work` in a transaction and answers once it is committed. `work` must use only `trx` and
   * must not wait for anything but the database, since others' transactions may share its commit.
   */
  run<T>(work: WriteWork<T>): Promise<T> {
    return this.commits ? this.commits.run(work) : this.store.db.transaction().execute(work);
  }
}
