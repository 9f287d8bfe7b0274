// The bounds a video cannot pass, derived from its plan and its workspace's credits: how long it may be, how
// many bytes its audio may take, how many characters its transcript may hold. What a page sends is hostile,
// so each bound is known before the work it limits starts.

/** What the workspace may still spend this cycle: its balance, and what its hard cap leaves. */
export interface SpendingRoom {
  readonly balance: number;
  readonly usedThisCycle: number;
  readonly hardCap: number | null;
}

/** The credits the workspace may still spend: the balance, or less under a hard cap; never below 0. */
export function creditsLeft(room: SpendingRoom): number {
  const underCap = room.hardCap === null ? Infinity : room.hardCap - room.usedThisCycle;
  return Math.max(0, Math.min(room.balance, underCap));
}

/**
 * The longest video, in seconds, that the plan allows and the workspace can pay for at `creditsPerMinute`:
 * whole minutes only, since each started minute costs a full minute's credits; 0 when not even one minute.
 */
export function longestPayableSeconds(
  longestVideoMinutes: number,
  room: SpendingRoom,
  creditsPerMinute: number,
): number {
  const payableMinutes = Math.floor(creditsLeft(room) / Math.max(1, creditsPerMinute));
  return Math.max(0, Math.min(longestVideoMinutes, payableMinutes)) * 60;
}

/** Room for a container's headers and an encoder's padding on top of the audio itself. */
const containerSlackBytes = 1024 * 1024;

/** The most bytes `seconds` of audio at `kilobitsPerSecond` (a generous rate) may take on disk. */
export function audioBytesBound(seconds: number, kilobitsPerSecond: number): number {
  return Math.ceil((Math.max(0, seconds) * kilobitsPerSecond * 1000) / 8) + containerSlackBytes;
}

/**
 * The most characters a transcript of `billedSeconds` may hold: `charsPerMinute` for each started minute.
 * A transcript denser than any speech (megabytes of cues over a minute) would cost model requests that
 * its charge never pays for.
 */
export function transcriptCharsBound(billedSeconds: number, charsPerMinute: number): number {
  return Math.max(1, Math.ceil(Math.max(0, billedSeconds) / 60)) * charsPerMinute;
}

const minutes = (count: number) => `${count} minute${count === 1 ? "" : "s"}`;

/** Megabytes, as the bound messages say them. */
export function inMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;
}

/** A failure code a bound may fail a video with: too long for the plan, or more than the credits pay for. */
export type BoundFailureCode = "video_unavailable" | "insufficient_credits" | "hard_cap_reached";

/**
 * A video went past a bound (its length, its audio's bytes, its transcript's characters): it fails with
 * `code` and a message naming the bound, and costs nothing. Final for `video_unavailable`; a video past
 * what the credits pay for may be tried again once there are more.
 */
export class BoundExceeded extends Error {
  constructor(
    readonly code: BoundFailureCode,
    message: string,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.code !== "video_unavailable";
  }
}

/** How long a video's audio may be, and what a longer one fails with. */
export interface LengthBound {
  readonly maxSeconds: number;
  readonly code: BoundFailureCode;
  /** The bound in words, for the message: "the plan's longest video (720 minutes)". */
  readonly named: string;
}

/** The bounds on one video's audio: its length, and its size from that length at a generous bit rate. */
export interface AudioLimits {
  readonly length: LengthBound;
  readonly maxBytes: number;
  readonly kilobitsPerSecond: number;
}

/**
 * The length bound of a video: the plan's longest video, or less when the workspace's credits pay for
 * fewer minutes at `creditsPerMinute`, the refusal it would meet at settlement then naming it.
 */
export function lengthBound(
  longestVideoMinutes: number,
  room: SpendingRoom,
  creditsPerMinute: number,
): LengthBound {
  const payable = longestPayableSeconds(longestVideoMinutes, room, creditsPerMinute);
  if (payable >= longestVideoMinutes * 60) {
    return {
      maxSeconds: payable,
      code: "video_unavailable",
      named: `the plan's longest video (${minutes(longestVideoMinutes)})`,
    };
  }
  const underCap = room.hardCap !== null && room.hardCap - room.usedThisCycle < room.balance;
  return {
    maxSeconds: payable,
    code: underCap ? "hard_cap_reached" : "insufficient_credits",
    named: `what ${underCap ? "the hard cap leaves" : "the balance pays for"} (${minutes(payable / 60)} at ${creditsPerMinute} credits a minute)`,
  };
}
