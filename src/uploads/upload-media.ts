// What a worker reads of an uploaded file, by ffmpeg from a local copy of its bytes: its subtitle stream as
// SubRip text, or its first audio track as a small mono AAC file for speech-to-text (a video's picture, or
// a container the transcription service does not take, never leaves the machine).
import { join } from "node:path";
import { runProgram } from "../platforms/programs.js";
import { uploadInput } from "./media-probe.js";
import type { UploadStore } from "./upload-store.js";

/** Ten hours of speech at 48 kbit/s: an hour is ~21 MB, under the usual 25 MB transcription upload limit. */
const timeoutMs = 30 * 60_000;
/** A subtitle track of a ten-hour recording is a few MB; past this it is not subtitles. */
const maxSubtitleBytes = 32 * 1024 * 1024;

/** ffmpeg could not read what the file was measured to hold (its bytes changed, or were lost). */
export class UploadUnreadable extends Error {}

/**
 * ffmpeg's words for the submitter, without what is the server's own: the file's path on this machine and
 * the reader's memory addresses (`[hls @ 0x55d1...]`).
 */
function complaint(stderr: string, path: string): string {
  return stderr
    .split(path)
    .join("the file")
    .replace(/ @ 0x[0-9a-f]+\]/g, "]")
    .trim()
    .slice(-300);
}

export class UploadMedia {
  constructor(
    private readonly store: UploadStore,
    /** The ffmpeg executable, found when first needed (create-uploads.ts). */
    private readonly ffmpeg: () => string,
  ) {}

  /** The subtitle stream at `streamIndex` (the file's own stream index), as SubRip text. */
  async subtitles(uploadId: string, streamIndex: number, signal?: AbortSignal): Promise<string> {
    const { stdout } = await this.run(
      uploadId,
      (path) => [...uploadInput(path), "-map", `0:${streamIndex}`, "-c:s", "srt", "-f", "srt", "pipe:1"],
      signal,
    );
    return stdout;
  }

  /**
   * The first audio track, re-encoded into `folder`; answers the new file's path. At 16 kHz, the rate
   * speech-to-text models take audio at (Whisper resamples whatever it gets to 16 kHz): encoding a 44.1
   * or 48 kHz track at its own rate cost four times the CPU (an hour's tone: about 86 s of ffmpeg's time
   * against 20 s), the longest step between an hour's upload and its rows.
   */
  async audio(uploadId: string, folder: string, signal?: AbortSignal): Promise<string> {
    const target = join(folder, "audio.m4a");
    await this.run(
      uploadId,
      (path) => [
        ...uploadInput(path),
        ...["-map", "0:a:0", "-vn", "-ac", "1", "-ar", "16000", "-c:a", "aac", "-b:a", "48k", "-y", target],
      ],
      signal,
    );
    return target;
  }

  private async run(uploadId: string, args: (path: string) => string[], signal?: AbortSignal) {
    const local = await this.store.localFile(uploadId);
    try {
      const output = await runProgram({
        program: "ffmpeg",
        executable: this.ffmpeg(),
        args: ["-nostdin", "-hide_banner", "-loglevel", "error", ...args(local.path)],
        timeoutMs,
        maxStdoutBytes: maxSubtitleBytes,
        signal,
      });
      if (output.exitCode !== 0) {
        throw new UploadUnreadable(
          `ffmpeg could not read the uploaded file: ${complaint(output.stderr, local.path)}`,
        );
      }
      return output;
    } finally {
      await local.release();
    }
  }
}
