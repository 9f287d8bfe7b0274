// Who we say we are to YouTube's player endpoint (InnerTube): the client name, version and device fields.

export interface InnerTubeClient {
  /** `context.client` of the player request. */
  readonly context: Readonly<Record<string, string | number>>;
  /** X-YouTube-Client-Name: the client's number. */
  readonly clientNameNumber: number;
  readonly userAgent: string;
}

const androidVrVersion = "1.65.10";

/**
 * The YouTube app of Oculus headsets. As of 2025 its caption track URLs come without the `exp=xpe` mark that
 * demands a proof-of-origin token (the web clients' do), and it needs no API key or JavaScript player; this
 * is what yt-dlp and other transcript tools fall back on. Clients age: an outdated one is answered with HTTP
 * 400 ("Precondition check failed"), which shows up as captions_unavailable.
 */
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
