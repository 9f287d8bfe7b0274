// A fake yt-dlp for pages of other platforms than YouTube, answering by the page URL it is given as yt-dlp
// does: the recorded info JSON of the page (--dump-single-json), the caption file of a chosen track written
// as `<output stem>.<key>.<ext>` (--load-info-json), the audio "downloaded" as a WAV the test wrote
// (-f wa/w -o), and `ERROR: Unsupported URL` with exit code 1 for a page it has no recording of.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFakeExecutable } from "./fake-executable.js";

export interface RecordedPage {
  /** The info JSON yt-dlp printed for the page. */
  readonly info: Record<string, unknown>;
  /** The text of each caption track, by the URL its `subtitles` entry gives. */
  readonly tracks?: Record<string, string>;
  /** What the run reading the page writes to standard error, and its exit code (0 unless set). */
  readonly stderr?: string;
  readonly exitCode?: number;
  /** The run reading the page never ends, like a yt-dlp stuck on a stalled connection. */
  readonly hang?: boolean;
  /** The media file this page's download "downloads" (its extension kept), instead of the shared WAV. */
  readonly audio?: string;
  /** The download never ends: a stream written a megabyte at a time (at most 4 GB) until the run is killed. */
  readonly endlessAudio?: boolean;
}

export interface FakePlatformYtDlp {
  /** The executable: VIDROWS_YTDLP_PATH. */
  readonly path: string;
  /** The pages it reads, by the exact URL it is asked about. */
  setPages(pages: Record<string, RecordedPage>): void;
  /** The audio every download "downloads". */
  setAudio(wav: Buffer): void;
  /** Every command line it was run with, in order. */
  calls(): string[][];
  remove(): void;
}

// CommonJS, as Node reads a file without an extension and without a package.json beside it.
const program = `
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
fs.appendFileSync(path.join(__dirname, "calls.jsonl"), JSON.stringify(args) + "\\n");
const pages = JSON.parse(fs.readFileSync(path.join(__dirname, "pages.json"), "utf8"));
const value = (flag) => args[args.indexOf(flag) + 1];
if (args.includes("--load-info-json")) {
  const info = JSON.parse(fs.readFileSync(value("--load-info-json"), "utf8"));
  const page = Object.values(pages).find((candidate) => candidate.info.id === info.id) || {};
  const tracks = (args.includes("--write-auto-subs") ? info.automatic_captions : info.subtitles) || {};
  const pattern = new RegExp("^(?:" + value("--sub-langs") + ")$");
  const format = value("--sub-format");
  const key = Object.keys(tracks).find((candidate) => pattern.test(candidate));
  const entry = key === undefined ? undefined : tracks[key].find((candidate) => candidate.ext === format);
  if (entry === undefined) {
    process.stderr.write("WARNING: " + value("--sub-langs") + " subtitles not available for " + info.id + "\\n");
    process.exit(0);
  }
  process.stdout.write("[info] Writing video subtitles to: " + key + "." + format + "\\n");
  fs.writeFileSync(value("--output").replace("%(ext)s", key + "." + format), (page.tracks || {})[entry.url]);
  process.exit(0);
}
const url = args[args.length - 1];
const page = pages[url];
if (page === undefined) {
  process.stderr.write("ERROR: Unsupported URL: " + url + "\\n");
  process.exit(1);
}
if (page.hang) {
  setInterval(() => {}, 1000);
  return;
}
if (page.stderr) process.stderr.write(page.stderr);
if (page.exitCode) process.exit(page.exitCode);
if (args.includes("-f")) {
  const source = page.audio || path.join(__dirname, "audio.wav");
  const ext = path.extname(source).slice(1);
  const output = value("-o").replace("%(ext)s", ext);
  if (page.endlessAudio) {
    const megabyte = Buffer.alloc(1024 * 1024, 1);
    let written = 0;
    const more = () => {
      if (written++ >= 4096) return;
      fs.appendFileSync(output, megabyte);
      setTimeout(more, 5);
    };
    more();
    return;
  }
  fs.copyFileSync(source, output);
  process.stdout.write(JSON.stringify({ ...page.info, ext }) + "\\n");
} else {
  process.stdout.write(JSON.stringify(page.info) + "\\n");
}
`;

export function createFakePlatformYtDlp(): FakePlatformYtDlp {
  const fake = createFakeExecutable("vidrows-fake-platform-yt-dlp-", program);
  const { folder } = fake;
  writeFileSync(join(folder, "pages.json"), "{}");
  return {
    path: fake.path,
    setPages: (pages) => writeFileSync(join(folder, "pages.json"), JSON.stringify(pages)),
    setAudio: (wav) => writeFileSync(join(folder, "audio.wav"), wav),
    calls: fake.calls,
    remove: fake.remove,
  };
}

/** A recorded page of test/fixtures/platforms: its info, and the text of each track it names in `tracks`. */
export function recordedPage(infoFile: string, trackFiles: Record<string, string> = {}): RecordedPage {
  const fixtures = new URL("../fixtures/platforms/", import.meta.url);
  const info = JSON.parse(readFileSync(new URL(infoFile, fixtures), "utf8")) as Record<string, unknown>;
  const subtitles = (info.subtitles ?? {}) as Record<string, { url: string; ext: string }[]>;
  const tracks: Record<string, string> = {};
  for (const [language, file] of Object.entries(trackFiles)) {
    const entry = subtitles[language]?.[0];
    if (entry === undefined) throw new Error(`${infoFile} has no ${language} track`);
    tracks[entry.url] = readFileSync(new URL(file, fixtures), "utf8");
  }
  return { info, tracks };
}
