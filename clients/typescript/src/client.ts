// Vidrows: the client's entry point, holding the connection settings and one object per resource.
import { Keys, Schemas, UsageResource } from "./resources/account.js";
import { Jobs } from "./resources/jobs.js";
import { Videos } from "./resources/videos.js";
import { Webhooks } from "./resources/webhooks.js";
import { Transport } from "./transport.js";
import { Uploads } from "./resources/uploads.js";

export interface VidrowsOptions {
  /** `vr_live_...` or `vr_test_...`. */
  readonly apiKey: string;
  /** Default `http://127.0.0.1:8080`. */
  readonly baseUrl?: string;
  /** Retries after the first attempt, where a retry is safe (see the README); default 2. */
  readonly maxRetries?: number;
  /** For each attempt, until its whole answer has arrived; default 60000. */
  readonly timeoutMs?: number;
  /** The first retry waits about this long (halved to doubled by jitter), each next one twice as long; default 500. */
  readonly retryBaseDelayMs?: number;
  /** Another fetch (a test double, an instrumented one); default the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch;
}

export const defaultBaseUrl = "http://127.0.0.1:8080";

export class Vidrows {
  readonly jobs: Jobs;
  /** Playlists' and channels' videos, to submit. */
  readonly videos: Videos;
  readonly usage: UsageResource;
  readonly schemas: Schemas;
  readonly webhooks: Webhooks;
  readonly keys: Keys;
  /** Audio and video files of your own, for jobs. */
  readonly uploads: Uploads;

  constructor(options: VidrowsOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey === "") {
      throw new TypeError("Vidrows needs an apiKey (vr_live_... or vr_test_...).");
    }
    const maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(maxRetries) || maxRetries < 0)
      throw new TypeError("maxRetries must be an integer >= 0.");
    const transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl ?? defaultBaseUrl,
      maxRetries,
      timeoutMs: options.timeoutMs ?? 60_000,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      // Bound, so that a browser's fetch is not called with the client as `this`.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    });
    this.jobs = new Jobs(transport);
    this.videos = new Videos(transport);
    this.usage = new UsageResource(transport);
    this.schemas = new Schemas(transport);
    this.webhooks = new Webhooks(transport);
    this.keys = new Keys(transport);
    this.uploads = new Uploads(transport);
  }
}
