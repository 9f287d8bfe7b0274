// Keeps SQLite's hands off its shared-memory file (`-shm`) while that file cannot be written.
import { accessSync, constants, statSync } from "node:fs";

/**
 * In WAL mode SQLite maps `<database>-shm` into memory and touches it in every transaction, reads
 * included. When the kernel can no longer back a page of that mapping (the file made immutable,
 * its file system remounted read-only, the file truncated), the next touch is not an error SQLite
 * could report: the process dies of SIGBUS. Measured on ext4: `chattr +i` on the file, or truncating
 * it, killed a serving process at its next request, every time.
 *
 * The guard looks at the file before a statement when its last look is over a millisecond old, and
 * every `intervalMs` (an `access(W_OK)`, which refuses an immutable file even to root, and a `stat`),
 * and, while the file is not writable, fences the store: every
 * statement is refused, before SQLite runs it, with an error that the API answers as 503
 * `unavailable`. When the file is writable again the fence lifts by itself. A file that shrank can
 * never be trusted again by this process (its mapping is past the file's end): the fence stays,
 * and the process must be restarted. A change made between a look and the statement after it can
 * still reach SQLite first: the guard narrows that window to a millisecond, it cannot close it.
 */
export class SharedMemoryGuard {
  private reason: string | null = null;
  private permanent = false;
  private largestSize = 0;
  private lastLook = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly shmPath: string,
    private readonly onChange: (reason: string | null) => void,
    intervalMs = 250,
  ) {
    this.check();
    this.timer = setInterval(() => this.check(), intervalMs);
    this.timer.unref();
  }

  /** Why the store is fenced, or null when SQLite may run, as of the last look. */
  get fencedBecause(): string | null {
    return this.reason;
  }

  /**
   * The same, looking at the file again first if the last look is over a millisecond old: called
   * before every statement, so the window in which a change can reach SQLite first is that millisecond.
   * Two system calls a millisecond at most, whatever the load.
   */
  fencedNow(): string | null {
    if (performance.now() - this.lastLook >= 1) this.check();
    return this.reason;
  }

  /** Looks at the file now; also called by the timer, so that an idle process lifts its fence. */
  check(): void {
    this.lastLook = performance.now();
    if (this.permanent) return;
    let size: number;
    try {
      size = statSync(this.shmPath).size;
    } catch {
      // Not made yet (SQLite makes it at the first transaction), or deleted: a deleted file stays
      // mapped and usable by this process, so neither is a danger.
      this.setReason(null);
      return;
    }
    if (size < this.largestSize) {
      this.permanent = true;
      this.setReason(
        `${this.shmPath} shrank from ${this.largestSize} to ${size} bytes under this process; restart it`,
      );
      return;
    }
    this.largestSize = size;
    try {
      accessSync(this.shmPath, constants.W_OK);
      this.setReason(null);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "an error";
      this.setReason(`${this.shmPath} cannot be written (${code})`);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private setReason(reason: string | null): void {
    if (reason === this.reason) return;
    this.reason = reason;
    this.onChange(reason);
  }
}

/** The error a fenced store answers every statement with; its code makes it a 503 (see errors.ts). */
export function fencedStoreError(reason: string): Error {
  return Object.assign(new Error(`The database's shared-memory file is unusable: ${reason}.`), {
    code: "SQLITE_IOERR_SHMMAP",
  });
}
