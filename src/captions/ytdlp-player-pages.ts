// What yt-dlp's saved pages (--write-pages) tell that its info does not: the player answers it got, whose
// audio tracks name the video's language (the default audio track's default caption track). yt-dlp's info
// marks an audio language only for videos with several audio tracks, and otherwise takes the automatic
// track's label, which may be wrong.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { audioCaptionLanguage, type CaptionTracklist } from "./youtube-tracks.js";

// A player answer is tens of kB; the watch page, saved too, is larger and of no use here.
const maxPageBytes = 4 * 1024 * 1024;

interface SavedPlayerAnswer {
  videoDetails?: { videoId?: unknown };
  captions?: { playerCaptionsTracklistRenderer?: CaptionTracklist };
}

function playerAnswer(text: string): SavedPlayerAnswer | null {
  if (!text.trimStart().startsWith("{")) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as SavedPlayerAnswer) : null;
  } catch {
    return null;
  }
}

/** The video's language by the first saved player answer for it that names one; null when none does. */
export async function spokenLanguageFromPages(folder: string, videoId: string): Promise<string | null> {
  const names = (await readdir(folder)).filter((name) => name.endsWith(".dump")).sort();
  for (const name of names) {
    const path = join(folder, name);
    if ((await stat(path)).size > maxPageBytes) continue;
    const answer = playerAnswer(await readFile(path, "utf8"));
    if (answer?.videoDetails?.videoId !== videoId) continue;
    const tracklist = answer.captions?.playerCaptionsTracklistRenderer;
    const language = tracklist === undefined ? null : audioCaptionLanguage(tracklist);
    if (language !== null) return language;
  }
  return null;
}
