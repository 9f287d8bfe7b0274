// Who we say we are to YouTube's player endpoint (InnerTube): the clients we know how to be (name, number,
// device fields, user agent, each for a given version), the ones asked by default, and reading the operator's
// VIDROWS_YOUTUBE_CLIENTS, which replaces that list and its versions without a release.

export interface InnerTubeClient {
  /** `context.client` of the player request. */
  readonly context: Readonly<Record<string, string | number>>;
  /** X-YouTube-Client-Name: the client's number. */
  readonly clientNameNumber: number;
  readonly userAgent: string;
}

interface ClientKind {
  readonly number: number;
  /** The version the maintained tools sent when this was written; VIDROWS_YOUTUBE_CLIENTS may replace it. */
  readonly version: string;
  readonly device: Readonly<Record<string, string | number>>;
  readonly userAgent: (version: string) => string;
}

/*
 * What the maintained tools rely on as of August 2026 (yt-dlp's client table and defaults,
 * youtube-transcript-api's player request):
 * - yt-dlp asks VISIONOS first when it cannot run YouTube's JavaScript player (as we cannot): it needs no
 *   JavaScript player and no proof-of-origin token for its player answer.
 * - ANDROID_VR still answers with captions; yt-dlp went back to 1.65.10, later versions answering some videos
 *   with streams only. Since 2026-08-17 the media of that version are refused (HTTP 403), which captions do
 *   not need. Neither headset client plays made-for-kids videos ("This video is not available").
 * - ANDROID is what youtube-transcript-api asks (20.10.38 in May 2026; yt-dlp sends 21.26.364).
 * - The web clients want a proof-of-origin token for their player answer and their caption URLs, and the
 *   embedded and creator clients demand sign-in: none is any use here.
 * An outdated version is answered with HTTP 400 "Precondition check failed" or told to update: the source
 * then asks the next client, and docs/captions-and-transcription.md ("When captions fail") says how an operator
 * notices and what to set.
 */
const kinds: Readonly<Record<string, ClientKind>> = {
  VISIONOS: {
    number: 101,
    version: "1.02",
    device: {
      deviceMake: "Apple",
      deviceModel: "RealityDevice17,1",
      osName: "visionOS",
      osVersion: "26.5.23O471",
    },
    // The headset's web view says it is Safari on a Mac, whatever the app's version.
    userAgent: () =>
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_7_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15",
  },
  ANDROID_VR: {
    number: 28,
    version: "1.65.10",
    device: {
      deviceMake: "Oculus",
      deviceModel: "Quest 3",
      androidSdkVersion: 32,
      osName: "Android",
      osVersion: "12L",
    },
    userAgent: (version) =>
      `com.google.android.apps.youtube.vr.oculus/${version} (Linux; U; Android 12L; eureka-user Build/SQ3A.220605.009.A1) gzip`,
  },
  ANDROID: {
    number: 3,
    version: "21.26.364",
    device: { androidSdkVersion: 30, osName: "Android", osVersion: "11" },
    userAgent: (version) => `com.google.android.youtube/${version} (Linux; U; Android 11) gzip`,
  },
};

/** The client names VIDROWS_YOUTUBE_CLIENTS may use. */
export const knownClientNames: readonly string[] = Object.keys(kinds);

/** The client of that name at that version (its built-in one without a version). */
export function innerTubeClient(name: string, version?: string): InnerTubeClient {
  const kind = kinds[name];
  if (kind === undefined) throw new Error(`"${name}" is not a client vidrows knows`);
  const clientVersion = version ?? kind.version;
  const userAgent = kind.userAgent(clientVersion);
  return {
    context: { clientName: name, clientVersion, ...kind.device, userAgent, hl: "en", gl: "US" },
    clientNameNumber: kind.number,
    userAgent,
  };
}

/** The clients the youtube source asks, in order, unless VIDROWS_YOUTUBE_CLIENTS says otherwise. */
export const defaultClientList = "VISIONOS,ANDROID_VR,ANDROID";

const versionPattern = /^\d{1,4}(?:\.\d{1,6}){1,3}$/;

/**
 * A VIDROWS_YOUTUBE_CLIENTS value: client names in the order to ask them, each optionally with the version to
 * send (`ANDROID_VR@1.65.10,ANDROID@21.26.364`). Throws an Error saying what is wrong with it.
 */
export function parseClientList(setting: string): InnerTubeClient[] {
  const entries = setting.split(",").map((entry) => entry.trim());
  const clients: InnerTubeClient[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const [name = "", version, extra] = entry.split("@").map((part) => part.trim());
    if (name === "") throw new Error("a client name is empty");
    if (!(name in kinds)) {
      throw new Error(`"${name}" is not a client vidrows knows (${knownClientNames.join(", ")})`);
    }
    if (extra !== undefined || (version !== undefined && !versionPattern.test(version))) {
      throw new Error(`"${entry}" must be NAME or NAME@VERSION, with a version such as 1.65.10`);
    }
    if (seen.has(name)) throw new Error(`"${name}" is named twice`);
    seen.add(name);
    clients.push(innerTubeClient(name, version));
  }
  return clients;
}

/** The clients asked by default. */
export const defaultClients: readonly InnerTubeClient[] = parseClientList(defaultClientList);
