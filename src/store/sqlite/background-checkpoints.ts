// SQLite's checkpoints moved off the event loop, into a thread of their own.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { CheckpointThreadData } from "./checkpoint-thread.js";
import type { SqliteDriverName } from "./sqlite-driver.js";

// A thread runs JavaScript only. Under the test runner this module is loaded from its TypeScript
// source, and the thread then runs the built copy (`npm test` builds first).
const besideThis = new URL("./checkpoint-thread.js", import.meta.url);
const threadScript = existsSync(besideThis)
  ? besideThis
  : new URL("../../../dist/store/sqlite/checkpoint-thread.js", import.meta.url);

/**
 * In WAL mode every commit appends to the log, and a checkpoint copies the log back into the database
 * file and syncs it. SQLite runs one inside the commit that takes the log past `wal_autocheckpoint`
 * pages, on the committing connection: both SQLite drivers are synchronous, so the event loop, and every
 * request of the process, stood still for it (with a 40 MB mark, `POST /v1`'s p99 under load was
 * 70-80 ms against 28 ms at 4 MB). Moved to a thread, SQLite's `POST /v1` answered 10-50% more
 * requests a second in alternating benchmark runs, at 8-27% less CPU each. The serving connection
 * never checkpoints (`wal_autocheckpoint = 0`); a thread with a connection of its own runs a passive
 * checkpoint every `intervalMs`, which waits for no one and which no one waits for: writers go on
 * appending to the log while it copies. When every connection of a process is closed, SQLite
 * checkpoints as it always does.
 */
export class BackgroundCheckpoints {
  private readonly thread: Worker;
  private stopped: Promise<void> | undefined;
  private readonly exited: Promise<void>;

  constructor(path: string, driver: SqliteDriverName, intervalMs = 50) {
    const data: CheckpointThreadData = { path, intervalMs, driver };
    this.thread = new Worker(threadScript, { workerData: data });
    // Listened for from the start: a thread that failed has exited long before anyone stops it.
    this.exited = new Promise((resolve) => this.thread.once("exit", () => resolve()));
    // The thread never keeps the process alive, and its failure is not the process's: the serving
    // connection checkpoints by itself again (see `onFailure`).
    this.thread.unref();
  }

  /** Called once if the thread dies (it could not open the database, say). */
  onFailure(handler: (error: Error) => void): void {
    this.thread.once("error", handler);
  }

  /** Stops the thread, after its checkpoint in progress if any. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      void this.exited.then(resolve);
      // Held again while it stops: a promise alone keeps no process alive, and a process whose last
      // work is this wait would otherwise end in the middle of it (a CLI command before its output).
      this.thread.ref();
      this.thread.postMessage("stop");
      // A thread stuck in a checkpoint on a dead disk must not hold up the shutdown for ever.
      setTimeout(() => void this.thread.terminate(), 5000).unref();
    });
    return this.stopped;
  }
}
