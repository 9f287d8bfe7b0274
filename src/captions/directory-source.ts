// Captions from a folder: `<video_id>.vtt`, `<video_id>.srt` or `<video_id>.json3`; no file, no captions.
import { readFile } from "node:fs";
import { join, resolve } from "node:path";
import { CaptionFormatError } from "./caption-format-error.js";
import { type CaptionFormat, cuesDurationSeconds, parseCaptions } from "./caption-formats.js";
import { type CaptionSource, type FetchTranscriptOptions } from "./caption-source.js";
import { PlatformError } from "../platforms/platform-error.js";
import { type Transcript } from "../domain/transcript.js";
import { assertVideoId } from "./video-id.js";

const extensions: readonly CaptionFormat[] = ["vtt", "srt", "json3"];

/**
 * The callback `readFile`, not the promise one: that one opens a FileHandle and reads in several
 * rounds, which cost a worker reading a file per video a measurable share of its time.
 */
function readText(path: string, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    readFile(path, { encoding: "utf8", signal }, (error, text) => (error ? reject(error) : resolve(text)));
  });
}

export class DirectoryCaptionSource implements CaptionSource {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = resolve(directory);
  }

  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    assertVideoId(videoId);
    for (const format of extensions) {
      const text = await this.readIfPresent(`${videoId}.${format}`, options.signal);
      if (text === null) continue;
      let cues: ReturnType<typeof parseCaptions>;
      try {
        cues = parseCaptions(text, format);
      } catch (error) {
        if (!(error instanceof CaptionFormatError)) throw error;
        // The file is what it is: reading it again will not help.
        throw new PlatformError("no_captions", `${videoId}.${format} could not be read: ${error.message}`);
      }
      if (cues.length === 0) throw new PlatformError("no_captions", `${videoId}.${format} has no captions.`);
      return { cues, durationSeconds: cuesDurationSeconds(cues) };
    }
    throw new PlatformError("no_captions", `No captions file for ${videoId} in the captions folder.`);
  }

  private async readIfPresent(name: string, signal: AbortSignal | undefined): Promise<string | null> {
    try {
      return await readText(join(this.directory, name), signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      // A disk or network-share hiccup may pass; let the worker retry.
      throw new PlatformError(
        "captions_unavailable",
        `The captions file ${name} could not be read (${code}).`,
      );
    }
  }
}
