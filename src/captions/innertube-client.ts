// Who we say we are to YouTube's player endpoint (InnerTube): the client name, version and device fields,
// and the clients asked in turn when one is refused.

export interface InnerTubeClient {
  /** `context.client` of the player request. */
  readonly context: Readonly<Record<string, string | number>>;
  /** X-YouTube-Client-Name: the client's number. */
  readonly clientNameNumber: number;
  readonly userAgent: string;
}

/*
 * What the maintained tools learnt in 2025 (yt-dlp's client table and its subtitle PO-token handling,
 * youtube-transcript-api's move from the watch page to the player endpoint):
 * - The web clients (WEB, MWEB, WEB_SAFARI) now get caption track URLs that need a proof-of-origin token;
 *   their player answers also need one, so they are no use without a token provider.
 * - ANDROID_VR needs no token for its player answer, its media or its captions, and no JavaScript player.
 *   It does not serve YouTube Kids videos, and some videos ask it to sign in.
 * - ANDROID needs a token for media but not for captions, and youtube-transcript-api reads captions through
 *   it; it is the second choice here.
 * - TVHTML5 needs no token either, but wants the JavaScript player's signature timestamp; the embedded and
 *   creator clients now demand sign-in for every video.
 * - An outdated client version is answered with HTTP 400 "Precondition check failed": versions age, and
 *   these follow yt-dlp's as of January 2026. Any track URL whose `exp` carries `xpe` or `xpv` still needs a
 *   token, whatever the client (see proof-of-origin.ts).
 */

const androidVrVersion = "1.71.26";

/** The YouTube app of Oculus headsets: the first client asked. */
export const androidVrClient: InnerTubeClient = {
  context: {
    clientName: "ANDROID_VR",
    clientVersion: androidVrVersion,
    deviceMake: "Oculus",
    deviceModel: "Quest 3",
    androidSdkVersion: 32,
    osName: "Android",
    osVersion: "12L",
    hl: "en",
    gl: "US",
  },
  clientNameNumber: 28,
  userAgent: `com.google.android.apps.youtube.vr.oculus/${androidVrVersion} (Linux; U; Android 12L; eureka-user Build/SQ3A.220605.009.A1) gzip`,
};

const androidVersion = "21.02.35";

/** The YouTube app for Android phones: asked when the headset client is refused. */
export const androidClient: InnerTubeClient = {
  context: {
    clientName: "ANDROID",
    clientVersion: androidVersion,
    androidSdkVersion: 30,
    osName: "Android",
    osVersion: "11",
    hl: "en",
    gl: "US",
  },
  clientNameNumber: 3,
  userAgent: `com.google.android.youtube/${androidVersion} (Linux; U; Android 11) gzip`,
};

/** The clients the youtube source asks, in order. */
export const defaultClients: readonly InnerTubeClient[] = [androidVrClient, androidClient];
