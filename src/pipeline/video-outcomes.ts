// What a worker hands to the settlement (a video and how it ended) and what it hears back; read by every
// settlement module, so that none of them imports settlement.ts, which imports them all.
import type { Row, RowSource } from "../extraction/extractor.js";

/** A video of another platform as its page named it: its settled video_id and the page its sources link. */
export interface PageIdentity {
  readonly videoId: string;
  readonly pageUrl: string;
}

export type VideoOutcome = (
  | {
      readonly kind: "done";
      readonly rows: Row[];
      /** Where each row came from, in the rows' order. */
      readonly sources: RowSource[];
      readonly durationSeconds: number;
      readonly chunkCount: number;
      /** Transcribed from its audio rather than read from captions: priced at the plan's transcription rate. */
      readonly transcribed?: boolean;
      /** Where its words came from: read, transcribed, or a transcript its workspace kept. */
      readonly transcriptSource?: "captions" | "transcription" | "reused";
    }
  | { readonly kind: "failed"; readonly code: string; readonly message: string; readonly retryable: boolean }
) & {
  /** A video of another platform, as its page named it: the video_id it settles under and its page. */
  readonly page?: PageIdentity;
};

export interface SettledVideo {
  readonly rowId: string;
  readonly jobId: string;
  readonly workspaceId: string;
  /** The job's data key: the rows are stored sealed under it when present (store/sealed-values.ts). */
  readonly dataKey?: Buffer | null;
}

/** A video whose outcome is ready, as handed to `settleVideos`. */
export interface Settlement {
  readonly video: SettledVideo;
  readonly outcome: VideoOutcome;
}

/** What settling did: `lost` when the worker no longer held the video (another settles it). */
export type SettlementResult =
  { kind: "lost" } | { kind: "settled"; status: "done" | "failed"; jobSettled: boolean };
