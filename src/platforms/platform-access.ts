// How a process reaches video sites, shared by every part that asks them (captions, audio downloads, pages of
// other platforms, listings): one pool of exit addresses taken in turn, one pace per site, one handling of
// the cookies file, and yt-dlp's runs with their failures read one way.
import type { Dispatcher } from "undici";
import type { Cookie } from "./netscape-cookies.js";
import { cookiesCopyIn, cookiesNow } from "./cookies.js";
import { EgressGuard, refusedAddressMessage } from "./egress/egress-guard.js";
import { PlatformError, platformUnavailable } from "./platform-error.js";
import {
  type ProgramOutput,
  type ProgramRun,
  ProgramNotRunnable,
  ProgramStopped,
  runProgram,
} from "./programs.js";
import { ProxyPool } from "./proxy-pool.js";
import { type PacingClock, SitePaces } from "./request-pacing.js";
import { ytDlpFailure } from "./ytdlp-failures.js";

export interface PlatformAccessSettings {
  /** VIDROWS_YOUTUBE_PROXY's proxies (parsed by parseProxySetting), one per attempt, in turn. */
  readonly proxies?: readonly string[];
  /** VIDROWS_YOUTUBE_COOKIES: read again at each attempt. */
  readonly cookiesFile?: string;
  /** VIDROWS_YOUTUBE_MIN_INTERVAL_MS: the least time between two requests to one site from this process. */
  readonly minIntervalMs?: number;
  /** The clock of the pace; tests record on their own. */
  readonly clock?: PacingClock;
  /** What starts a program (runProgram unless set): the one seam every run passes through. */
  readonly runner?: (run: ProgramRun) => Promise<ProgramOutput>;
  /** The egress guard every run's connections go through (public addresses only unless set otherwise). */
  readonly egress?: EgressGuard;
}

/** What every run of one attempt shares: its exit (proxy) and its identity (a cookies copy for yt-dlp). */
export interface AttemptAccess {
  readonly proxy?: string;
  readonly cookiesFile?: string;
}

/** The part of a yt-dlp run its caller chooses: everything but which program it is. */
export type YtDlpRun = Omit<ProgramRun, "program">;

/** The arguments that hand an attempt's proxy and cookies to yt-dlp. */
export function accessArguments(access: AttemptAccess): string[] {
  return [
    ...(access.proxy === undefined ? [] : ["--proxy", access.proxy]),
    ...(access.cookiesFile === undefined ? [] : ["--cookies", access.cookiesFile]),
  ];
}

/** A run's connections were led to an address vidrows does not reach; `addresses` are for logs only. */
export class EgressRefused extends Error {
  constructor(readonly addresses: readonly string[]) {
    super(refusedAddressMessage);
  }
}

/** The failure of a video whose page or platform led to an address vidrows does not reach. */
function refusedVideo(label: string): PlatformError {
  return new PlatformError("video_unavailable", `For ${label}, ${refusedAddressMessage}.`);
}

/**
 * A yt-dlp command line with its `--proxy` (the attempt's operator proxy, from accessArguments) taken out:
 * the run leaves through the egress guard, which chains that proxy behind itself.
 */
function routedThroughGuard(args: readonly string[]): { upstream: string | undefined; args: string[] } {
  const end = args.indexOf("--");
  const at = args.indexOf("--proxy");
  if (at === -1 || (end !== -1 && at > end)) return { upstream: undefined, args: [...args] };
  return { upstream: args[at + 1], args: [...args.slice(0, at), ...args.slice(at + 2)] };
}

export class PlatformAccess {
  readonly proxies: ProxyPool;
  readonly paces: SitePaces;
  readonly cookiesFile: string | undefined;
  private readonly runner: (run: ProgramRun) => Promise<ProgramOutput>;
  readonly egress: EgressGuard;

  constructor(settings: PlatformAccessSettings = {}) {
    this.egress = settings.egress ?? new EgressGuard();
    this.proxies = new ProxyPool(settings.proxies ?? []);
    this.paces = new SitePaces(settings.minIntervalMs ?? 0, settings.clock);
    this.cookiesFile = settings.cookiesFile || undefined;
    this.runner = settings.runner ?? runProgram;
  }

  /** The pace between the requests of one yt-dlp run (the pages of a long listing, a video's API calls). */
  sleepArguments(): string[] {
    const seconds = this.paces.minIntervalMs / 1000;
    return seconds > 0 ? ["--sleep-requests", String(seconds)] : [];
  }

  /** A yt-dlp attempt's exit and identity: the next proxy, and a copy of the cookies inside `folder`. */
  async ytDlpAttempt(folder: string): Promise<AttemptAccess> {
    const proxy = this.proxies.next();
    if (this.cookiesFile === undefined) return { proxy };
    return { proxy, cookiesFile: await cookiesCopyIn(this.cookiesFile, folder) };
  }

  /** The cookies for an attempt's own requests (none without the setting). */
  async cookies(): Promise<Cookie[]> {
    return this.cookiesFile === undefined ? [] : cookiesNow(this.cookiesFile);
  }

  /**
   * Sends one request to `site` in its turn: `send` is called when the turn comes and must start the
   * request at once. Throws the abort reason on abort, without sending.
   */
  paced<T>(site: string, signal: AbortSignal | undefined, send: () => T): Promise<T> {
    return this.paces.of(site).paced(signal, send);
  }

  /**
   * One run of yt-dlp against `site`, started in the site's turn. A run that could not start or finish throws
   * ProgramNotRunnable or ProgramStopped, as the caller's API needs them told apart.
   */
  async runYtDlp(site: string, run: YtDlpRun): Promise<ProgramOutput> {
    const { upstream, args } = routedThroughGuard(run.args);
    return this.egress.within(upstream, async (session) => {
      const output = await this.paced(site, run.signal, () =>
        this.runner({
          program: "yt-dlp",
          ...run,
          // The session reaches yt-dlp through its environment only (see childEnvironment).
          args,
          proxyUrl: session.proxyUrl,
        }),
      );
      // Whatever yt-dlp made of it (a warning, a missing track, an error naming the port): a page that led
      // to an address vidrows does not reach fails, and nothing read in that run is used.
      if (session.refused) throw new EgressRefused(session.refusedAddresses);
      return output;
    });
  }

  /**
   * vidrows' own requests of one attempt at the video `label` names (the youtube source's player and caption
   * requests): `work` is given undici's dispatcher of an egress session of its own, leaving through the next
   * proxy of the pool, closed when the work ends. However `work` ends, a request it made that was led to an
   * address vidrows does not reach (a track URL, a redirect hop, a name resolving inside) fails the video.
   */
  async ownRequests<T>(label: string, work: (dispatcher: Dispatcher) => Promise<T>): Promise<T> {
    return this.egress.within(this.proxies.next(), async (session) => {
      let result: T;
      try {
        result = await work(session.dispatcher());
      } catch (error) {
        if (session.refused) throw refusedVideo(label);
        throw error;
      }
      if (session.refused) throw refusedVideo(label);
      return result;
    });
  }

  /**
   * One run of yt-dlp for a video (`label` names it in messages): every way it fails as a PlatformError, read
   * from what yt-dlp said; the caller's abort reason on abort.
   */
  async runYtDlpForVideo(site: string, label: string, run: YtDlpRun): Promise<ProgramOutput> {
    let output: ProgramOutput;
    try {
      output = await this.runYtDlp(site, run);
    } catch (error) {
      if (run.signal?.aborted) throw run.signal.reason;
      if (error instanceof EgressRefused) throw refusedVideo(label);
      if (error instanceof ProgramStopped)
        throw platformUnavailable(`${error.message} for ${label}; it was killed.`);
      if (error instanceof ProgramNotRunnable) {
        // Gone since start-up (an upgrade in progress, a removed package): fixable without touching the video.
        throw platformUnavailable(
          `${error.message}; install yt-dlp or point VIDROWS_YTDLP_PATH at it (see docs/captions-and-transcription.md).`,
        );
      }
      throw error;
    }
    if (output.exitCode !== 0) throw ytDlpFailure(output.exitCode, output.stderr, label);
    return output;
  }
}
