// What a `takeRows` answer says of a job's rows: received now, still running, held by another read, or taken.
import type { JobRead } from "./api-types.js";

/**
 * - `running`: the job has not settled; nothing was taken.
 * - `received`: this answer carries the rows (or the job has none: every video failed). Keep them.
 * - `held`: another read's answer is carrying the rows right now (`rows_held`). They are not handed
 *   over yet and come back if that answer does not get through: read again in a moment.
 * - `taken`: an earlier read received them, and the server deleted them.
 */
export type RowsState = "running" | "received" | "held" | "taken";

export function rowsState(read: JobRead): RowsState {
  if (read.status === "processing") return "running";
  if (read.rows_held) return "held";
  const taken = read.results.some((video) => video.status === "done" && video.rows === null);
  return taken ? "taken" : "received";
}
