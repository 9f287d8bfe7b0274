// Measuring audio by its packets and cutting it into pieces under the transcription service's upload limit
// with ffmpeg, each piece's start in the video read from ffmpeg's own list, so that times are offset exactly.
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { runProgram } from "../platforms/programs.js";
import type { DownloadedAudio } from "./audio-download.js";
import type { AudioCutter, PlacedPiece } from "./speech-to-text.js";
import { TranscriptionError } from "./transcriber.js";

/** Pieces a little shorter than the limit allows: a variable bit rate makes some parts denser than others. */
const margin = 0.8;
/** Cutting again with pieces half as long, when a piece still came out too large. */
const maxCuts = 4;
const timeoutMs = 10 * 60_000;
/** A piece shorter than this holds no speech (a cut's leftover of the encoder's padding) and is not sent. */
const shortestPieceSeconds = 0.1;
/**
 * The downloaded file, read as a local file only: a page can serve a playlist named like audio, whose
 * entries ffmpeg would otherwise fetch (over the network, from wherever they point).
 */
const localInput = ["-protocol_whitelist", "file", "-i"];

export class FfmpegAudioCutter implements AudioCutter {
  constructor(private readonly executable: string) {}

  /**
   * The seconds the audio's packets span, read by copying them to nowhere: a header (or a page) may say
   * anything, the packets are what a transcription would hear.
   */
  async measure(path: string, signal?: AbortSignal): Promise<number> {
    const { stdout } = await this.run(
      [
        ...["-nostdin", "-hide_banner", "-loglevel", "error", "-nostats", ...localInput, path],
        ...["-map", "0:a:0", "-c", "copy", "-f", "null", "-progress", "pipe:1", "-"],
      ],
      signal,
    );
    const times = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)];
    const last = Number(times.at(-1)?.[1]);
    if (!Number.isFinite(last))
      throw new TranscriptionError("ffmpeg could not tell how long the audio is.", false);
    return last / 1_000_000;
  }

  async cut(
    audio: DownloadedAudio,
    maxBytes: number,
    folder: string,
    signal?: AbortSignal,
    keepSeconds?: number,
  ) {
    const { size } = await stat(audio.path);
    const duration = audio.durationSeconds ?? (await this.measure(audio.path, signal));
    let pieceSeconds = Math.max(1, (duration * maxBytes * margin) / size);
    for (let cut = 1; cut <= maxCuts; cut++) {
      const prefix = join(folder, `cut-${cut}`);
      const pieces = await this.cutInto(audio.path, pieceSeconds, prefix, keepSeconds, signal);
      const sizes = await Promise.all(pieces.map(async ({ piece }) => (await stat(piece.path)).size));
      if (sizes.every((bytes) => bytes <= maxBytes)) return pieces;
      pieceSeconds /= 2;
    }
    throw new TranscriptionError(
      `ffmpeg could not cut the audio into pieces of at most ${maxBytes} bytes.`,
      false,
    );
  }

  /**
   * One run of ffmpeg's segment muxer, copying the audio as it is (no re-encoding), and its list of pieces
   * with their start and end times.
   */
  private async cutInto(
    path: string,
    pieceSeconds: number,
    prefix: string,
    keepSeconds: number | undefined,
    signal?: AbortSignal,
  ) {
    const extension = extname(path);
    const list = `${prefix}.csv`;
    await this.run(
      [
        "-nostdin",
        "-hide_banner",
        "-loglevel",
        "error",
        ...localInput,
        path,
        "-map",
        "0:a",
        "-c",
        "copy",
        ...(keepSeconds === undefined ? [] : ["-t", keepSeconds.toFixed(3)]),
        "-f",
        "segment",
        "-segment_time",
        pieceSeconds.toFixed(3),
        "-reset_timestamps",
        "1",
        "-segment_list",
        list,
        "-segment_list_type",
        "csv",
        `${prefix}-%04d${extension}`,
      ],
      signal,
    );
    const pieces: PlacedPiece[] = [];
    for (const line of (await readFile(list, "utf8")).split("\n")) {
      const [name, start, end] = line.trim().split(",");
      if (!name || start === undefined || end === undefined) continue;
      const offsetSeconds = Number(start);
      if (!(Number(end) - offsetSeconds >= shortestPieceSeconds)) continue;
      pieces.push({
        piece: { path: join(dirname(prefix), name), durationSeconds: Number(end) - offsetSeconds },
        offsetSeconds,
      });
    }
    if (pieces.length === 0) throw new TranscriptionError("ffmpeg cut the audio into no pieces.", false);
    return pieces;
  }

  /** One run of ffmpeg (no shell; killed with what it started on abort or past its time). */
  private async run(args: string[], signal: AbortSignal | undefined) {
    let output;
    try {
      output = await runProgram({ program: "ffmpeg", executable: this.executable, args, timeoutMs, signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TranscriptionError(`ffmpeg could not be run: ${(error as Error).message}.`, false);
    }
    if (output.exitCode !== 0) {
      throw new TranscriptionError(`ffmpeg failed reading the audio: ${output.stderr.slice(-300)}`, false);
    }
    return output;
  }
}
