// The bounds of one video, checked before its costly work: the length and bytes its audio may have (from
// its plan's longest video and what its workspace's credits pay for), and, once its words are in hand, their
// characters a minute and the charge they come to, so that no model request is made for a video that could
// not be paid for or that holds more words than any speech.
import { readSpendingRoom, refusalOf } from "../credits/spending-check.js";
import {
  type AudioLimits,
  audioBytesBound,
  BoundExceeded,
  lengthBound,
  transcriptCharsBound,
} from "../domain/media-bounds.js";
import type { PlanTable } from "../domain/plans.js";
import { creditsForDuration } from "../domain/pricing.js";
import { billedSeconds, wordsSpanSeconds } from "../domain/processed-length.js";
import type { Store } from "../store/database.js";
import type { Transcript } from "../domain/transcript.js";

export interface VideoBoundsOptions {
  readonly store: Store;
  readonly plans: PlanTable;
  /** The generous bit rate an audio download is bounded at (VIDROWS_AUDIO_MAX_KBPS). */
  readonly audioMaxKilobitsPerSecond?: number;
  /** VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE. */
  readonly transcriptMaxCharsPerMinute?: number;
}

/** A plan the table lacks (removed from VIDROWS_PLANS) is bounded as the built-in plans are. */
const fallbackPlan = { longestVideoMinutes: 720, transcriptionCreditsPerMinute: 2 };

/** The seconds a transcript is charged for: the audio sent, or its words' span; never past the claim. */
export function transcriptBilledSeconds(transcript: Transcript): number {
  const processed = transcript.processedSeconds ?? wordsSpanSeconds(transcript.cues);
  return billedSeconds(processed, transcript.durationSeconds);
}

export class VideoBounds {
  constructor(private readonly options: VideoBoundsOptions) {}

  /**
   * The bounds on the audio of a video of `workspaceId` about to be transcribed; a BoundExceeded at once
   * when its credits pay for not even a minute, before anything is downloaded.
   */
  async audioLimits(workspaceId: string): Promise<AudioLimits> {
    const room = await readSpendingRoom(this.options.store.db, workspaceId);
    const plan = this.options.plans.get(room.planId) ?? fallbackPlan;
    const rate = plan.transcriptionCreditsPerMinute;
    const length = lengthBound(plan.longestVideoMinutes, room, rate);
    if (length.maxSeconds === 0) {
      const refusal = refusalOf(rate, room);
      throw new BoundExceeded(
        refusal?.code ?? "insufficient_credits",
        `${refusal?.message ?? `A transcribed minute costs ${rate} credits.`} Nothing was downloaded or charged.`,
      );
    }
    const kilobitsPerSecond = this.options.audioMaxKilobitsPerSecond ?? 320;
    return { length, kilobitsPerSecond, maxBytes: audioBytesBound(length.maxSeconds, kilobitsPerSecond) };
  }

  /**
   * The seconds the video is charged for, once its words are in hand and before the model reads them:
   * a BoundExceeded when they hold more characters a minute than any speech, or when the workspace cannot
   * pay what they come to (the settlement checks again under its lock).
   */
  async chargedSeconds(workspaceId: string, transcript: Transcript, transcribed: boolean): Promise<number> {
    const seconds = transcriptBilledSeconds(transcript);
    const perMinute = this.options.transcriptMaxCharsPerMinute ?? 5000;
    const bound = transcriptCharsBound(seconds, perMinute);
    let characters = 0;
    for (const cue of transcript.cues) characters += cue.text.length;
    if (characters > bound) {
      throw new BoundExceeded(
        "video_unavailable",
        `The transcript holds ${characters} characters over ${Math.max(1, Math.ceil(seconds / 60))} charged minutes, past the ${perMinute} a minute any speech stays under (VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE); nothing was charged.`,
      );
    }
    const room = await readSpendingRoom(this.options.store.db, workspaceId);
    const rate = transcribed
      ? (this.options.plans.get(room.planId) ?? fallbackPlan).transcriptionCreditsPerMinute
      : 1;
    const refusal = refusalOf(creditsForDuration(seconds, rate), room);
    if (refusal !== null) throw new BoundExceeded(refusal.code, `${refusal.message} Nothing was charged.`);
    return seconds;
  }
}
