// A job's failed videos on stderr, one line each with its code, for people deciding what to do next.
import type { CommandContext } from "./command.js";

interface FailedVideo {
  readonly video_id: string;
  readonly status: string;
  readonly error?: { readonly code: string; readonly message: string; readonly retryable: boolean };
}

/** `failed <video_id>: <code> (retryable): <message>` for each failed video, in the job's order. */
export function reportFailedVideos(context: CommandContext, videos: readonly FailedVideo[]): void {
  for (const video of videos) {
    if (video.status !== "failed" || video.error === undefined) continue;
    const retry = video.error.retryable ? " (retryable)" : "";
    context.io.stderr.write(
      `failed ${video.video_id}: ${video.error.code}${retry}: ${video.error.message}\n`,
    );
  }
}
