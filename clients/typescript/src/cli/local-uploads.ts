// `jobs submit ./call.mp4 ./lecture.mkv`: the local files among the videos, each uploaded (POST /v1/uploads)
// as it is read from disk and submitted as `upload:<upload_id>`. On a terminal a progress line is rewritten
// as the bytes go; otherwise one plain line per file when it starts and when it is stored.
import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import type { CommandContext } from "./command.js";
import { UsageError } from "./exit-codes.js";
import { rewriteLine } from "./progress-line.js";

/** A URL or an `upload:` reference: a scheme before a colon (a Windows drive letter is one letter). */
const scheme = /^[a-z][a-z0-9+.-]+:/i;

/**
 * Whether a video argument names a local file: it has a folder part (`./call.mp4`, `/srv/a.mkv`) or a
 * file extension (`call.mp4`), and is no URL. A YouTube id (11 characters, no dot or slash) never does.
 */
export function namesLocalFile(argument: string): boolean {
  if (scheme.test(argument)) return false;
  return /[\\/]/.test(argument) || /\.[A-Za-z0-9]{1,5}$/.test(argument);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The file's bytes as they are read, each chunk counted for the progress line. */
async function* counted(path: string, onBytes: (sent: number) => void): AsyncGenerator<Uint8Array> {
  let sent = 0;
  for await (const chunk of createReadStream(path)) {
    sent += (chunk as Buffer).byteLength;
    onBytes(sent);
    yield chunk as Buffer;
  }
}

/** The size of the file an argument names; a usage error before anything is sent when there is none. */
function sizeOf(path: string): number {
  let info;
  try {
    info = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file; give a video's URL or id, or a local audio or video file.`);
  }
  if (!info.isFile()) throw new UsageError(`${path} is not a file.`);
  return info.size;
}

/** The videos with each local file replaced by `upload:<upload_id>`, uploaded one after another. */
export async function uploadLocalFiles(
  context: CommandContext,
  videos: readonly string[],
): Promise<string[]> {
  const files = videos.filter(namesLocalFile);
  const sizes = new Map(files.map((path) => [path, sizeOf(path)]));
  const stderr = context.io.stderr;
  const live = stderr.isTTY === true && !context.json;
  const submitted: string[] = [];
  for (const video of videos) {
    const size = sizes.get(video);
    if (size === undefined) {
      submitted.push(video);
      continue;
    }
    const name = basename(video);
    if (!live) stderr.write(`Uploading ${name} (${megabytes(size)})\n`);
    const progress = (sent: number) => {
      const percent = size === 0 ? 100 : Math.floor((sent / size) * 100);
      stderr.write(rewriteLine(`Uploading ${name}: ${percent}% (${megabytes(sent)} of ${megabytes(size)})`));
    };
    const upload = await context.client().uploads.create(counted(video, live ? progress : () => {}));
    const stored = `Uploaded ${name} as ${upload.upload_id} (${upload.duration_seconds.toFixed(1)} s of audio)`;
    stderr.write(live ? `${rewriteLine(stored)}\n` : `${stored}\n`);
    submitted.push(`upload:${upload.upload_id}`);
  }
  return submitted;
}
