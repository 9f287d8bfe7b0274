// Suites that run speech-to-text need ffmpeg (a worker configured for it will not start without); they
// skip, saying why, on a machine that lacks it.
import { findProgram } from "../../src/platforms/executables.js";

/** Why the suite cannot run here, or null when ffmpeg is found. */
export function ffmpegMissing(): string | null {
  try {
    findProgram("ffmpeg", undefined, "This test");
    return null;
  } catch {
    return "ffmpeg is not installed (apt-get install -y ffmpeg)";
  }
}
