// Waiting for a job from the command line: a live progress line on a terminal, Ctrl-C stops only the wait.
import type { JobListItem } from "../api-types.js";
import type { CommandContext } from "./command.js";
import { exitCodes } from "./exit-codes.js";
import { reportFailedVideos } from "./failed-videos.js";
import { progressText, rewriteLine } from "./progress-line.js";

/**
 * Waits for `jobId` to settle (never taking its rows) and answers its last progress. On a terminal
 * without --json, stderr shows a progress line. Ctrl-C (or `io.interrupt`) ends the wait with a
 * VidrowsError `aborted`, after saying that the job goes on.
 */
export async function waitForJob(
  context: CommandContext,
  jobId: string,
  pollIntervalMs: number,
): Promise<JobListItem> {
  const { io } = context;
  const live = io.stderr.isTTY === true && !context.json;
  const started = Date.now();
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  const interrupt = io.interrupt;
  if (interrupt) interrupt.addEventListener("abort", onInterrupt, { once: true });
  else process.once("SIGINT", onInterrupt);
  try {
    const settled = await context.client().jobs.wait(jobId, {
      pollIntervalMs,
      signal: stop.signal,
      onProgress: (progress) => {
        if (live) io.stderr.write(rewriteLine(progressText(progress, Date.now() - started)));
      },
    });
    if (live) io.stderr.write("\n");
    return settled;
  } catch (error) {
    if (stop.signal.aborted) {
      io.stderr.write(
        `${live ? "\n" : ""}Stopped waiting. Job ${jobId} goes on; follow it with \`${context.program} jobs wait ${jobId}\`.\n`,
      );
    }
    throw error;
  } finally {
    if (interrupt) interrupt.removeEventListener("abort", onInterrupt);
    else process.removeListener("SIGINT", onInterrupt);
  }
}

/**
 * Prints a settled job's progress and answers the exit code: 0 when some video is done (failed ones of a
 * `partial` job are listed on stderr), `jobFailed` when every video failed: each one's code is listed, and
 * what to run next, since `"results": []` alone would read as a job that found no rows.
 */
export async function reportSettledJob(context: CommandContext, settled: JobListItem): Promise<number> {
  context.print(settled);
  const { job_id: jobId, counts, videos } = settled;
  if (counts.failed === 0) return exitCodes.ok;
  const listed = await context.client().jobs.videos(jobId);
  reportFailedVideos(context, listed.data);
  const program = context.program;
  const why = `\`${program} jobs videos ${jobId}\` lists each video's state and code`;
  if (settled.status === "failed") {
    context.io.stderr.write(
      `Job ${jobId} failed: ${counts.failed === 1 ? "its one video" : `all ${videos} videos`} failed (above), ` +
        `so it has no rows and cost nothing. ${why}; a retryable code may succeed in a new job.\n`,
    );
    return exitCodes.jobFailed;
  }
  context.io.stderr.write(
    `${counts.failed} of ${videos} videos failed (above); ${why}. ` +
      `Take the rows of the ${counts.done} done with \`${program} jobs rows ${jobId}\`.\n`,
  );
  return exitCodes.ok;
}
