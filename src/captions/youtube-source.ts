// Captions from YouTube itself: the InnerTube player endpoint lists a video's caption tracks, and the chosen
// track is downloaded as json3; a client the platform refuses gives way to the next. Every way it can go
// wrong is mapped to the contract's per-video codes.
import type { Dispatcher } from "undici";
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds } from "./caption-formats.js";
import { defaultCaptionTimeoutMs, type HttpAnswer, HttpFailure, httpRequest } from "./caption-http.js";
import type { CaptionCue, Transcript } from "../domain/transcript.js";
import { type Cookie, cookieHeader } from "../platforms/netscape-cookies.js";
import type { EgressGuard } from "../platforms/egress/egress-guard.js";
import { PlatformAccess } from "../platforms/platform-access.js";
import { PlatformError, platformUnavailable as unavailable } from "../platforms/platform-error.js";
import { parseProxyList } from "../platforms/proxy-pool.js";
import { youtubeSite } from "../platforms/sites.js";
import type { CaptionSource, FetchTranscriptOptions } from "./caption-source.js";
import { defaultClients, type InnerTubeClient } from "./innertube-client.js";
import { parseJson3 } from "./json3.js";
import { needsProofOfOrigin } from "./proof-of-origin.js";
import { assertVideoId } from "./video-id.js";
import { ClientRefusal, type PlayabilityStatus, playabilityError } from "./youtube-playability.js";
import { type CaptionTrack, type CaptionTracklist, chooseTrack, readTracks } from "./youtube-tracks.js";

export const youtubeBaseUrl = "https://www.youtube.com";

export interface YouTubeSourceOptions {
  /** Where the player endpoint lives; tests point it at a local server. */
  readonly baseUrl?: string;
  /** The process's proxies (one per attempt), pace and cookies, shared with everything else that asks YouTube. */
  readonly access?: PlatformAccess;
  /** One proxy, or a list of them, with no pace or cookies: an access of this source's own (see access). */
  readonly proxy?: string;
  /** The egress guard of that access of its own (public addresses only unless set). */
  readonly egress?: EgressGuard;
  readonly timeoutMs?: number;
  /** The clients to ask, in order (see innertube-client.ts). */
  readonly clients?: readonly InnerTubeClient[];
}

interface PlayerResponse {
  playabilityStatus?: PlayabilityStatus;
  videoDetails?: { videoId?: unknown; lengthSeconds?: unknown };
  captions?: { playerCaptionsTracklistRenderer?: CaptionTracklist };
}

/** What one attempt at a video uses: its own connections, and the cookies as the file says now. */
interface Attempt {
  readonly dispatcher: Dispatcher;
  readonly cookies: readonly Cookie[];
  readonly signal: AbortSignal | undefined;
}

function ownProxies(setting: string | undefined): string[] {
  if (setting === undefined || setting.trim() === "") return [];
  try {
    return parseProxyList(setting);
  } catch (error) {
    throw new Error(`The YouTube proxy is not usable: ${(error as Error).message}.`);
  }
}

export class YouTubeCaptionSource implements CaptionSource {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly clients: readonly InnerTubeClient[];
  private readonly access: PlatformAccess;

  constructor(options: YouTubeSourceOptions = {}) {
    this.baseUrl = (options.baseUrl ?? youtubeBaseUrl).replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? defaultCaptionTimeoutMs;
    this.clients = options.clients ?? defaultClients;
    this.access =
      options.access ?? new PlatformAccess({ proxies: ownProxies(options.proxy), egress: options.egress });
  }

  /**
   * Asks each client in turn while the platform refuses the client itself (an outdated version, a stand-in
   * video, track URLs that need a token); a block of our address or an answer about the video ends it.
   */
  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    assertVideoId(videoId);
    // The cookies file as it is now (a browser export may be replaced while the worker runs).
    const cookies = await this.access.cookies();
    // One attempt, one exit: the next proxy of the pool, behind an egress session of the attempt's own that
    // checks every address the platform's answers lead to; closed, with whatever is still open, at the end.
    return this.access.ownRequests(videoId, (dispatcher) =>
      this.attempt(videoId, options.language, { dispatcher, cookies, signal: options.signal }),
    );
  }

  private async attempt(
    videoId: string,
    language: string | undefined,
    attempt: Attempt,
  ): Promise<Transcript> {
    const refusals: ClientRefusal[] = [];
    for (const client of this.clients) {
      try {
        return await this.fetchWith(client, videoId, language, attempt);
      } catch (error) {
        if (!(error instanceof ClientRefusal)) throw error;
        refusals.push(new ClientRefusal(`As ${client.context.clientName}: ${error.message}`, error));
      }
    }
    throw new PlatformError("captions_unavailable", refusals.map((refusal) => refusal.message).join(" "), {
      sawCaptionTracks: refusals.some((refusal) => refusal.sawCaptionTracks),
    });
  }

  private async fetchWith(
    client: InnerTubeClient,
    videoId: string,
    language: string | undefined,
    attempt: Attempt,
  ): Promise<Transcript> {
    const player = await this.player(client, videoId, attempt);
    const refusal = playabilityError(player.playabilityStatus, videoId);
    if (refusal !== null) throw refusal;
    const shownId = player.videoDetails?.videoId;
    if (typeof shownId === "string" && shownId !== videoId) {
      // The platform answers a blocked client with some other video; that says nothing about this one.
      throw new ClientRefusal(`YouTube answered with video ${shownId} when asked for ${videoId}.`);
    }
    const tracklist = player.captions?.playerCaptionsTracklistRenderer;
    if (tracklist === undefined || readTracks(tracklist).length === 0) {
      throw new PlatformError("no_captions", `${videoId} has no captions on YouTube.`);
    }
    const track = chooseTrack(tracklist, language);
    if (track === null) {
      const languages = [...new Set(readTracks(tracklist).map((t) => t.languageCode))].join(", ");
      throw new PlatformError(
        "no_captions",
        `${videoId} has no captions in "${language}" on YouTube (it has ${languages}).`,
      );
    }
    const cues = await this.trackCues(client, track, videoId, attempt);
    const length = Number(player.videoDetails?.lengthSeconds);
    return {
      cues,
      durationSeconds: Number.isFinite(length) && length > 0 ? length : cuesDurationSeconds(cues),
      language: track.languageCode,
    };
  }

  /** Nothing is held between attempts: each closes its own connections. */
  async close(): Promise<void> {}

  private async player(client: InnerTubeClient, videoId: string, attempt: Attempt): Promise<PlayerResponse> {
    const answer = await this.send(
      client,
      {
        url: `${this.baseUrl}/youtubei/v1/player?prettyPrint=false`,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-youtube-client-name": String(client.clientNameNumber),
          "x-youtube-client-version": String(client.context.clientVersion ?? ""),
        },
        body: JSON.stringify({
          context: { client: client.context },
          videoId,
          // Skip the "this video may contain sensitive content" interstitials; they are not refusals.
          contentCheckOk: true,
          racyCheckOk: true,
        }),
      },
      attempt,
      `the player endpoint for ${videoId}`,
    );
    try {
      const parsed: unknown = JSON.parse(answer.text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        return parsed as PlayerResponse;
    } catch {
      // Falls through: a consent or captcha page instead of JSON is the platform stopping us.
    }
    throw unavailable(`YouTube's player endpoint did not answer JSON for ${videoId}.`);
  }

  private async trackCues(
    client: InnerTubeClient,
    track: CaptionTrack,
    videoId: string,
    attempt: Attempt,
  ): Promise<CaptionCue[]> {
    const url = URL.parse(track.baseUrl, this.baseUrl);
    // Any other scheme (file:, data:, ftp:) is not a platform's captions, and vidrows reaches none.
    if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
      throw unavailable(`YouTube gave an unusable caption track URL for ${videoId}.`);
    }
    if (needsProofOfOrigin(url)) {
      throw new ClientRefusal(`YouTube wants a proof-of-origin token for the captions of ${videoId}.`, {
        sawCaptionTracks: true,
      });
    }
    url.searchParams.set("fmt", "json3");
    const answer = await this.send(client, { url: url.href }, attempt, `the captions of ${videoId}`);
    if (answer.text.trim() === "") {
      throw new ClientRefusal(
        `YouTube sent empty captions for ${videoId} (a proof-of-origin token is missing).`,
        { sawCaptionTracks: true },
      );
    }
    let cues: CaptionCue[];
    try {
      cues = parseJson3(answer.text);
    } catch (error) {
      if (!(error instanceof CaptionFormatError)) throw error;
      throw unavailable(`YouTube sent unreadable captions for ${videoId}: ${error.message}`);
    }
    if (cues.length === 0)
      throw new PlatformError("no_captions", `The captions of ${videoId} have no words.`);
    return cues;
  }

  /** One request to the platform; no answer, or any status but 2xx, is the platform failing or refusing us. */
  private async send(
    client: InnerTubeClient,
    request: { url: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
    attempt: Attempt,
    what: string,
  ): Promise<HttpAnswer> {
    const cookie = cookieHeader(attempt.cookies, new URL(request.url));
    let answer: HttpAnswer;
    try {
      answer = await this.access.paced(youtubeSite, attempt.signal, () =>
        httpRequest({
          ...request,
          headers: {
            "user-agent": client.userAgent,
            "accept-language": "en-US,en;q=0.9",
            ...(cookie === null ? {} : { cookie }),
            ...request.headers,
          },
          timeoutMs: this.timeoutMs,
          signal: attempt.signal,
          dispatcher: attempt.dispatcher,
        }),
      );
    } catch (error) {
      if (error instanceof HttpFailure) throw unavailable(`YouTube, ${what}: ${error.message}.`);
      throw error;
    }
    if (answer.status === 400) {
      // "Precondition check failed": the platform no longer serves this client version.
      throw new ClientRefusal(`YouTube answered HTTP 400 (an outdated client) for ${what}.`);
    }
    if (answer.status < 200 || answer.status > 299) {
      const why =
        answer.status === 429 ? " (too many requests)" : answer.status === 403 ? " (forbidden)" : "";
      throw unavailable(`YouTube answered HTTP ${answer.status}${why} for ${what}.`);
    }
    return answer;
  }
}
