// Whether this process reads pages besides YouTube's: as VIDROWS_OTHER_PLATFORMS says, and only where a
// yt-dlp is found (VIDROWS_YTDLP_PATH, else on PATH), since nothing else reads them. The API refuses such
// URLs at submission without it; a worker without it fails their videos `video_unavailable`.
import type { Config } from "../config.js";
import type { OtherPlatforms } from "../domain/submitted-videos.js";
import { locateProgram } from "../platforms/executables.js";

export interface OtherPlatformsRead {
  readonly setting: OtherPlatforms;
  /** The yt-dlp that reads them; null when the setting is `off`. */
  readonly ytDlp: string | null;
}

export function otherPlatformsRead(config: Config): OtherPlatformsRead {
  const wanted = config.otherPlatforms ?? "off";
  const ytDlp = wanted === "off" ? null : locateProgram("yt-dlp", config.ytDlpPath);
  return { setting: ytDlp === null ? "off" : wanted, ytDlp };
}
