// The thread that checkpoints a SQLite database (see background-checkpoints.ts): its own connection,
// a passive checkpoint every few milliseconds, nothing else.
import { parentPort, workerData } from "node:worker_threads";
import { SharedMemoryGuard } from "./shared-memory-guard.js";
import { openSqliteConnection, type SqliteDriverName } from "./sqlite-driver.js";

export interface CheckpointThreadData {
  readonly path: string;
  readonly intervalMs: number;
  /** The serving connection's driver: the thread runs on the same one. */
  readonly driver: SqliteDriverName;
}

const { path, intervalMs, driver } = workerData as CheckpointThreadData;
const sqlite = openSqliteConnection(path, { fileMustExist: true, driver });
// Never waits for a lock: a checkpoint that cannot take one now is tried again at the next tick.
sqlite.exec("pragma busy_timeout = 0");
sqlite.exec("pragma wal_autocheckpoint = 0");
// The same rule as the serving connections': no statement while the shared-memory file cannot be
// written (a touch of it then kills the whole process, this thread's touch too).
const guard = new SharedMemoryGuard(`${path}-shm`, () => {}, 60_000);
const passiveCheckpoint = sqlite.prepare("pragma wal_checkpoint(PASSIVE)");

function checkpoint(): void {
  if (guard.fencedNow()) return;
  try {
    // Copies what the log holds into the database file and syncs it, without waiting for any reader
    // or writer; when the log is fully copied, the next writer starts it again from its beginning.
    passiveCheckpoint.run([]);
  } catch {
    // Another checkpoint holds the lock (a TRUNCATE by the storage eraser, another process's): next tick.
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort?.on("message", (message: unknown) => {
  if (message !== "stop") return;
  clearInterval(timer);
  guard.stop();
  // Closing touches the shared memory too: a fenced thread leaves the connection to the process's end.
  if (!guard.fencedNow()) sqlite.close();
  parentPort?.close();
});
