// The remembered answers, in one seam: decorators around the hot reads (a job, a list page, usage, the
// key list) that answer from memory while the request's read stamp says nothing was written since the
// answer was computed (see StampedCache); wired in the composition root (services.ts).
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import type { RequestContext } from "../http/request-context.js";
import type { JobPages, ListQuery } from "../jobs/job-list.js";
import type { JobReadOptions, JobReadOutcome, JobReads } from "../jobs/job-read.js";
import type { JobPage } from "../jobs/job-schemas.js";
import type { ApiKeyService } from "../keys/api-keys.js";
import type { ApiKey } from "../keys/key-schemas.js";
import { StampedCache } from "../store/stamped-cache.js";
import { defaultMemorySettings } from "../config/memory-settings.js";
import type { UsageService } from "../usage/usage-report.js";
import type { Usage } from "../usage/usage-schemas.js";

// The caches are bounded, each to VIDROWS_REMEMBERED_ANSWERS answers (docs/operations.md, "Memory budget"). The stamp is the request's
// (`RequestContext.readStamp`): SQLite's, for the whole file, or PostgreSQL's write version
// of the caller's workspace, which the request's key check reads (access/postgres-access-check.ts). With
// VIDROWS_REMEMBER_ANSWERS=0 there is none, and every read computes.

/** Reads of jobs with more videos than this are not remembered: their answers are large. */
const rememberedJobVideos = 200;

const dayMs = 86_400_000;

/**
 * The job read, remembered, except while a settled job's rows are held: then a read's answer can change
 * without a write (another read's claim on the rows lapses), and it is computed every time. HEAD's
 * reads, which never take the rows, are remembered apart.
 */
export class RememberedJobReads {
  private readonly answers: StampedCache<JobReadOutcome>;

  constructor(
    private readonly reads: JobReads,
    capacity = defaultMemorySettings.rememberedAnswers,
  ) {
    this.answers = new StampedCache(capacity);
  }

  read(context: RequestContext, jobId: string, options: JobReadOptions): MaybePromise<JobReadOutcome> {
    return this.answers.get(
      `${context.workspaceId}:${jobId}:${options.handOver ? "get" : "head"}`,
      async () => {
        const outcome = await this.reads.read(context, jobId, options);
        const small = outcome.body.videos <= rememberedJobVideos;
        return { value: outcome, remember: small && outcome.rowsHeld === undefined };
      },
      { stamp: context.readStamp },
    );
  }
}

/** List pages, remembered. */
export class RememberedJobPages {
  private readonly answers: StampedCache<JobPage>;

  constructor(
    private readonly pages: JobPages,
    capacity = defaultMemorySettings.rememberedAnswers,
  ) {
    this.answers = new StampedCache(capacity);
  }

  list(context: RequestContext, query: ListQuery): MaybePromise<JobPage> {
    const key = `${context.workspaceId}:${query.status}:${query.search}:${query.limit}:${query.offset}`;
    return this.answers.get(key, async () => ({ value: await this.pages.list(context, query) }), {
      stamp: context.readStamp,
    });
  }
}

/** The usage object, remembered until a write, or the end of the day or the cycle it names. */
export class RememberedUsage {
  private readonly answers: StampedCache<Usage>;

  constructor(
    private readonly usage: UsageService,
    capacity = defaultMemorySettings.rememberedAnswers,
  ) {
    this.answers = new StampedCache(capacity);
  }

  get(context: RequestContext, now = Date.now()): MaybePromise<Usage> {
    const day = Math.floor(now / dayMs);
    return this.answers.get(`${context.workspaceId}:${day}`, () => this.usage.report(context, now), {
      now,
      stamp: context.readStamp,
    });
  }
}

/** The key list, remembered. */
export class RememberedKeyLists {
  private readonly answers: StampedCache<ApiKey[]>;

  constructor(
    private readonly apiKeys: ApiKeyService,
    capacity = defaultMemorySettings.rememberedAnswers,
  ) {
    this.answers = new StampedCache(capacity);
  }

  list(context: RequestContext): MaybePromise<ApiKey[]> {
    return this.answers.get(context.workspaceId, async () => ({ value: await this.apiKeys.list(context) }), {
      stamp: context.readStamp,
    });
  }
}
