// Whether anything was committed to a SQLite file, read from its write-ahead log's header in shared memory.
import { closeSync, openSync, readSync } from "node:fs";

/**
 * In WAL mode every commit, by any connection of any process, rewrites the log's index header at the
 * start of `<database>-shm`: 48 bytes holding, among others, a counter of transactions and the log's
 * last frame. SQLite writes the header twice, the second copy first, so a reader that finds both copies
 * equal has a whole one. A header unlike the last one read means a commit since.
 *
 * `PRAGMA data_version` answers the same question through a read transaction, whose shared-memory
 * locks are two `fcntl` calls; reading the header is one `pread`, and every authenticated request on
 * SQLite asks (access/sqlite-access-check.ts). The reading is conservative: this connection's own
 * commits, a checkpoint's restart of the log, or a header caught half-written all count as a change,
 * which only makes a remembered answer be worked out again. Where the file cannot be read (not made yet,
 * or cut short), `PRAGMA data_version` answers instead.
 */
export class LogHeaderStamps {
  private fd: number | undefined;
  private readonly read = Buffer.alloc(headerBytes * 2);
  private readonly last = Buffer.alloc(headerBytes);
  private changes = 0;

  constructor(
    private readonly shmPath: string,
    private readonly dataVersion: () => unknown,
  ) {}

  /** A string that differs from every earlier one whenever anything was committed since. */
  now(): string {
    const bytes = this.readHeaders();
    if (bytes < headerBytes * 2) return `v${String(this.dataVersion())}`;
    const whole = this.read.compare(this.read, 0, headerBytes, headerBytes, headerBytes * 2) === 0;
    if (!whole || this.last.compare(this.read, 0, headerBytes) !== 0) {
      this.changes++;
      this.read.copy(this.last, 0, 0, headerBytes);
    }
    return `h${this.changes}`;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Both copies of the header; the bytes read, 0 when the file is not there. */
  private readHeaders(): number {
    try {
      // Opened once: SQLite makes the file at its first transaction, and keeps it while connected.
      this.fd ??= openSync(this.shmPath, "r");
      return readSync(this.fd, this.read, 0, headerBytes * 2, 0);
    } catch {
      return 0;
    }
  }
}

/** sizeof(WalIndexHdr) in SQLite's wal.c. */
const headerBytes = 48;
