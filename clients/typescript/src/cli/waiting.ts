// Waiting for a job from the command line: a live progress line on a terminal, Ctrl-C stops only the wait.
import type { JobListItem } from "../api-types.js";
import type { CommandContext } from "./command.js";
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
