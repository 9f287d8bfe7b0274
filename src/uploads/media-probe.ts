// What an uploaded file is: whether ffmpeg reads it as audio or video at all, its streams (ffprobe), and the
// seconds its audio's packets span (ffmpeg), which is what is billed, whatever the file's header claims.
import { runProgram } from "../platforms/programs.js";

/**
 * The containers an upload may be, by ffmpeg's demuxer names: the common audio and video formats and
 * nothing that refers to other files (playlists, concat lists, image sequences), which would let one
 * upload make ffmpeg read another file on the server.
 */
export const uploadFormats = [
  ...["mov", "matroska", "mp3", "wav", "w64", "ogg", "flac", "aac", "avi", "asf", "mpegts", "mpeg", "flv"],
  ...["amr", "aiff", "caf", "au", "ac3", "eac3", "dts", "truehd"],
];

/** ffmpeg's and ffprobe's input options for an upload: a local file only, in one of the formats above. */
export function uploadInput(path: string): string[] {
  return ["-protocol_whitelist", "file", "-format_whitelist", uploadFormats.join(","), "-i", path];
}

export interface MediaFacts {
  /** The seconds the first audio stream's packets span. */
  readonly durationSeconds: number;
  /** The index of the first subtitle stream, null when there is none. */
  readonly subtitleStream: number | null;
}

/** Why a file is refused: not media ffmpeg reads (`not_media`), or media without sound (`no_audio`). */
export class UnusableMedia extends Error {
  constructor(
    readonly reason: "not_media" | "no_audio",
    message: string,
  ) {
    super(message);
  }
}

const timeoutMs = 5 * 60_000;
/** ffprobe's answer is a few lines per stream; a file with thousands of streams is not a recording. */
const maxProbeOutput = 1024 * 1024;

interface ProbedStream {
  index?: unknown;
  codec_type?: unknown;
}

export class MediaProbe {
  /** `programs()` finds ffprobe and ffmpeg when first needed; it throws, naming the one missing. */
  constructor(private readonly programs: () => { ffprobe: string; ffmpeg: string }) {}

  /** The ffmpeg that measures uploads, for the worker's reading of them too (upload-media.ts). */
  ffmpegPath(): string {
    return this.programs().ffmpeg;
  }

  async probe(path: string, signal?: AbortSignal): Promise<MediaFacts> {
    const { ffprobe, ffmpeg } = this.programs();
    const probed = await runProgram({
      program: "ffprobe",
      executable: ffprobe,
      args: [
        ...["-v", "error", "-show_entries", "stream=index,codec_type", "-of", "json"],
        ...uploadInput(path),
      ],
      timeoutMs,
      maxStdoutBytes: maxProbeOutput,
      signal,
    });
    let streams: ProbedStream[] = [];
    try {
      const parsed = JSON.parse(probed.stdout) as { streams?: ProbedStream[] };
      streams = Array.isArray(parsed.streams) ? parsed.streams : [];
    } catch {
      streams = [];
    }
    if (probed.exitCode !== 0 || streams.length === 0) {
      throw new UnusableMedia("not_media", "The file is not audio or video that vidrows reads.");
    }
    const indexOf = (type: string) =>
      streams.find((stream) => stream.codec_type === type && Number.isSafeInteger(stream.index))?.index as
        number | undefined;
    if (indexOf("audio") === undefined) {
      throw new UnusableMedia("no_audio", "The file has no audio track, so there is nothing to transcribe.");
    }
    return {
      durationSeconds: await this.audioSeconds(ffmpeg, path, signal),
      subtitleStream: indexOf("subtitle") ?? null,
    };
  }

  /** The audio's packets copied to nowhere: the time of the last is the length a transcription hears. */
  private async audioSeconds(ffmpeg: string, path: string, signal?: AbortSignal): Promise<number> {
    const { exitCode, stdout } = await runProgram({
      program: "ffmpeg",
      executable: ffmpeg,
      args: [
        ...["-nostdin", "-hide_banner", "-loglevel", "error", "-nostats", ...uploadInput(path)],
        ...["-map", "0:a:0", "-c", "copy", "-f", "null", "-progress", "pipe:1", "-"],
      ],
      timeoutMs,
      signal,
    });
    const last = Number([...stdout.matchAll(/^out_time_us=(\d+)$/gm)].at(-1)?.[1]);
    if (exitCode !== 0 || !Number.isFinite(last) || last <= 0) {
      throw new UnusableMedia("no_audio", "The file's audio track holds no sound ffmpeg can read.");
    }
    return last / 1_000_000;
  }
}
