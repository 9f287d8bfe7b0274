// The CLI's exit codes, one per kind of outcome, so that scripts can branch on them (see the README).
import { VidrowsError } from "../errors.js";

export const exitCodes = {
  ok: 0,
  /** The server answered with an error (its code and message are printed). */
  apiError: 1,
  /** The command line was wrong: unknown command or option, missing argument, no API key. */
  usageError: 2,
  /** No answer from the server: refused, reset, timed out, or not the API's answer. */
  networkError: 3,
  /** `jobs rows` found nothing to take: the job is still running, or its rows were taken before. */
  nothingTaken: 4,
  /** The job settled `failed`: every one of its videos failed (each one's code is printed on stderr). */
  jobFailed: 5,
  /** `jobs rows` found the rows held by another read's answer right now: they may come back, run it again. */
  rowsHeld: 6,
  /** Ctrl-C while waiting: the job goes on. */
  interrupted: 130,
} as const;

export class UsageError extends Error {}

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return exitCodes.usageError;
  if (error instanceof VidrowsError) {
    if (error.code === "aborted") return exitCodes.interrupted;
    if (error.status === null || error.code === "invalid_response") return exitCodes.networkError;
    return exitCodes.apiError;
  }
  throw error;
}
