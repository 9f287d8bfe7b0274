// Sees a job's cancellation within about a second on every worker process, at no cost while idle.

export interface CancellationWatchOptions {
  /** Time between looks while anything is watched: one look's delay plus this stays well inside 2 s. */
  readonly intervalMs: number;
  /** Those of `jobIds` that are cancelled (one indexed statement over the jobs' primary keys). */
  cancelledAmong(jobIds: readonly string[]): Promise<ReadonlySet<string>>;
  onError(error: unknown): void;
}

/** One piece of work watched for its job's cancellation: `signal` aborts when it is seen. */
export interface WatchedWork {
  readonly signal: AbortSignal;
  /** The work is over: stop watching it. */
  end(): void;
}

/** Why the watch aborted a piece of work. */
export class JobCancelled extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was cancelled`);
  }
}

/**
 * The contract (§12) wants a cancelled job's model requests stopped within 2 seconds on every worker
 * process. The lease renewal, a third of the lease apart (40 s by default), is far too slow, and a
 * timer of its own per video would cost a statement per video. Instead one timer, running only while
 * something is watched, asks the database once a second which of the held jobs are cancelled: zero
 * statements at idle, one cheap primary-key lookup a second per busy worker process, on both databases.
 * (PostgreSQL's LISTEN/NOTIFY would react sooner, but costs a connection of its own per process and a
 * path for reconnecting and for notices missed meanwhile, which would need this poll anyway.) The cancel
 * route tells the worker of its own process at once through `jobCancelled`.
 */
export class CancellationWatch {
  private readonly watched = new Map<WatchedWork, { jobId: string; cancel: AbortController }>();
  /** How many watched pieces each job has: the jobs a look asks about. */
  private readonly workPerJob = new Map<string, number>();
  /** Jobs seen cancelled while some of their work is still watched: work watched later aborts at once. */
  private readonly cancelledJobs = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: CancellationWatchOptions) {}

  /** Watches a piece of work of `jobId` until its `end()`. */
  watch(jobId: string): WatchedWork {
    const cancel = new AbortController();
    const work: WatchedWork = { signal: cancel.signal, end: () => this.unwatch(work) };
    this.watched.set(work, { jobId, cancel });
    this.workPerJob.set(jobId, (this.workPerJob.get(jobId) ?? 0) + 1);
    if (this.cancelledJobs.has(jobId)) cancel.abort(new JobCancelled(jobId));
    this.schedule();
    return work;
  }

  /** The job is known to be cancelled (this process cancelled it): abort its work now, without a look. */
  jobCancelled(jobId: string): void {
    this.abortJobs(new Set([jobId]));
  }

  /** Ends the looks; waits for one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.looking;
  }

  /** The next look, unless one is due already, nothing is watched, or the watch has stopped. */
  private schedule(): void {
    if (this.timer || this.looking || this.stopped || this.watched.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.looking = this.look().finally(() => {
        this.looking = undefined;
        this.schedule();
      });
    }, this.options.intervalMs);
  }

  private async look(): Promise<void> {
    const jobIds = [...this.workPerJob.keys()].filter((jobId) => !this.cancelledJobs.has(jobId));
    if (jobIds.length === 0) return;
    try {
      this.abortJobs(await this.options.cancelledAmong(jobIds));
    } catch (error) {
      // A failed look (the database briefly away) is tried again at the next one.
      this.options.onError(error);
    }
  }

  private abortJobs(jobIds: ReadonlySet<string>): void {
    for (const { jobId, cancel } of this.watched.values()) {
      if (!jobIds.has(jobId)) continue;
      this.cancelledJobs.add(jobId);
      cancel.abort(new JobCancelled(jobId));
    }
  }

  private unwatch(work: WatchedWork): void {
    const entry = this.watched.get(work);
    if (!entry) return;
    this.watched.delete(work);
    const left = (this.workPerJob.get(entry.jobId) ?? 1) - 1;
    if (left > 0) this.workPerJob.set(entry.jobId, left);
    else {
      this.workPerJob.delete(entry.jobId);
      this.cancelledJobs.delete(entry.jobId);
    }
    if (this.watched.size === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
