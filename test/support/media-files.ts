// Real media made with ffmpeg for the upload tests: a tone, a video without sound, a Matroska file with a
// subtitle stream. Each made once per folder and handed back as its path.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

function ffmpeg(args: string[]): void {
  execFileSync("ffmpeg", ["-nostdin", "-v", "error", "-y", ...args], { stdio: ["ignore", "ignore", "pipe"] });
}

/** An AAC tone in MP4 (`.m4a`) of `seconds`; `title`, when given, is stored as is in the file's tags. */
export function toneFile(
  folder: string,
  seconds: number,
  name = `tone-${seconds}.m4a`,
  title?: string,
): string {
  const path = join(folder, name);
  const tags = title === undefined ? [] : ["-metadata", `title=${title}`];
  ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:duration=${seconds}`,
    "-c:a",
    "aac",
    "-b:a",
    "64k",
    ...tags,
    path,
  ]);
  return path;
}

/** An MP4 with a picture and no audio track. */
export function silentVideoFile(folder: string): string {
  const path = join(folder, "silent.mp4");
  ffmpeg(["-f", "lavfi", "-i", "testsrc=duration=2:size=64x64:rate=5", "-an", path]);
  return path;
}

/** A Matroska file: a tone of `seconds` and a SubRip subtitle stream saying `cues`, one per 2 s. */
export function subtitledFile(folder: string, seconds: number, cues: readonly string[]): string {
  const srt = join(folder, "cues.srt");
  const at = (s: number) => `00:00:${String(s).padStart(2, "0")},000`;
  writeFileSync(
    srt,
    cues.map((cue, i) => `${i + 1}\n${at(i * 2)} --> ${at(i * 2 + 2)}\n${cue}\n`).join("\n"),
  );
  const path = join(folder, "subtitled.mkv");
  ffmpeg([
    ...["-f", "lavfi", "-i", `sine=frequency=330:duration=${seconds}`, "-i", srt],
    ...["-map", "0", "-map", "1", "-c:a", "libvorbis", "-c:s", "srt", path],
  ]);
  return path;
}
