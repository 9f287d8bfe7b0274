// A watch on a download from our side of it: what yt-dlp's own --max-filesize checks is only what the server
// announces (its Content-Length, a format's listed size), and a hostile server announces nothing and sends
// an endless chunked body. So this process looks at the bytes the download has written into its folder, and
// stops it (through the run's abort signal, which kills its whole process group) past the bound, or when it
// is still going at its deadline.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { BoundExceeded, inMegabytes } from "../domain/media-bounds.js";
import { platformUnavailable } from "../platforms/platform-error.js";

export interface DownloadWatchOptions {
  /** The download's own folder: everything in it is counted (the file, its fragments, a cookies copy). */
  readonly folder: string;
  /** How the downloaded file's name begins: once it exists, the server has answered and is sending. */
  readonly filePrefix: string;
  /** The most bytes the folder may hold. */
  readonly maxBytes: number;
  /** The bound in words, for the message ("the most the plan's longest video (720 minutes) may take at 320 kbit/s"). */
  readonly boundNamed: string;
  /** How long the download may run, and the setting that says so (for the message). */
  readonly deadlineMs: number;
  readonly deadlineSetting: string;
  /** How often the folder is measured (500 ms unless set): the overshoot is what arrives in that time. */
  readonly intervalMs?: number;
  /** Called once, with why the download must stop; the caller aborts the run with it. */
  readonly stop: (reason: Error) => void;
}

/** The bytes of the files directly in `folder` (0 for one that is gone), and whether the download's is one. */
async function measureFolder(folder: string, filePrefix: string): Promise<{ bytes: number; begun: boolean }> {
  const names = await readdir(folder).catch(() => [] as string[]);
  let bytes = 0;
  for (const name of names) {
    const entry = await stat(join(folder, name)).catch(() => null);
    if (entry?.isFile()) bytes += entry.size;
  }
  return { bytes, begun: names.some((name) => name.startsWith(filePrefix)) };
}

export class DownloadWatch {
  private bytesSeen = 0;
  private begun = false;
  private stopped = false;
  private measuring = false;
  private readonly ticker: NodeJS.Timeout;
  private readonly deadline: NodeJS.Timeout;

  constructor(private readonly options: DownloadWatchOptions) {
    this.ticker = setInterval(() => void this.measure(), options.intervalMs ?? 500);
    this.deadline = setTimeout(() => void this.deadlineReached(), options.deadlineMs);
  }

  /** The most bytes the folder was seen to hold. */
  get bytes(): number {
    return this.bytesSeen;
  }

  /** Ends the watch (the download ended by itself, or was stopped). */
  end(): void {
    clearInterval(this.ticker);
    clearTimeout(this.deadline);
  }

  private fire(reason: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.end();
    this.options.stop(reason);
  }

  private async look(): Promise<void> {
    const seen = await measureFolder(this.options.folder, this.options.filePrefix);
    this.bytesSeen = Math.max(this.bytesSeen, seen.bytes);
    this.begun ||= seen.begun;
  }

  private async measure(): Promise<void> {
    // One measurement at a time: a slow disk must not pile them up.
    if (this.measuring || this.stopped) return;
    this.measuring = true;
    try {
      await this.look();
    } finally {
      this.measuring = false;
    }
    if (this.bytesSeen > this.options.maxBytes) {
      this.fire(
        new BoundExceeded(
          "video_unavailable",
          `The audio download grew larger than ${inMegabytes(this.options.maxBytes)}, ${this.options.boundNamed}, and was stopped; nothing was charged.`,
        ),
      );
    }
  }

  /**
   * Still running at the deadline. A download begun (its file opened once the server answered; yt-dlp
   * gives up by itself on a server that then goes silent) means the server kept sending without end in
   * sight (an endless stream, or one too slow for the deadline): the same would happen again, so the video
   * fails for good rather than being tried again. No download begun is a site that did not answer, which
   * may pass.
   */
  private async deadlineReached(): Promise<void> {
    await this.look();
    const seconds = Math.round(this.options.deadlineMs / 1000);
    if (this.begun || this.bytesSeen > 0) {
      this.fire(
        new BoundExceeded(
          "video_unavailable",
          `The audio download was still running after ${seconds} s (${this.options.deadlineSetting}) with ${inMegabytes(this.bytesSeen)} written: a stream without end, or one too slow to finish; it was stopped and nothing was charged.`,
        ),
      );
    } else {
      this.fire(
        platformUnavailable(
          `The audio download had not begun after ${seconds} s (${this.options.deadlineSetting}); it was stopped and may be tried again.`,
        ),
      );
    }
  }
}
