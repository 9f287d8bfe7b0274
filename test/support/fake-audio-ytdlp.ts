// A fake yt-dlp for speech-to-text: "downloads" a WAV file the test wrote (a few seconds of generated tone)
// into the output template it is given, and prints the info JSON with the audio's duration.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFakeExecutable } from "./fake-executable.js";
import { wavHeader } from "./wav-header.js";

/** A mono 16-bit PCM WAV file of `seconds` of a quiet tone at `sampleRate`. */
export function wavBytes(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * 2);
  }
  const header = wavHeader(data.length, sampleRate, 1);
  return Buffer.concat([header, data]);
}

export interface FakeAudioYtDlp {
  /** The executable: VIDROWS_YTDLP_PATH. */
  readonly path: string;
  /** The audio every run "downloads", and the duration it reports (none: the info has no duration). */
  setAudio(wav: Buffer, durationSeconds: number | null): void;
  /** Every command line it was run with, in order. */
  calls(): string[][];
  remove(): void;
}

const program = `
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
fs.appendFileSync(path.join(__dirname, "calls.jsonl"), JSON.stringify(args) + "\\n");
const setup = JSON.parse(fs.readFileSync(path.join(__dirname, "setup.json"), "utf8"));
const output = args[args.indexOf("-o") + 1].replace("%(ext)s", "wav");
fs.copyFileSync(path.join(__dirname, "audio.wav"), output);
const url = args[args.length - 1];
const id = new URL(url).searchParams.get("v");
const info = { id, extractor_key: "Youtube", ext: "wav", webpage_url: url };
if (setup.duration !== null) info.duration = setup.duration;
process.stdout.write(JSON.stringify(info) + "\\n");
`;

export function createFakeAudioYtDlp(): FakeAudioYtDlp {
  const fake = createFakeExecutable("vidrows-fake-audio-yt-dlp-", program);
  const { folder } = fake;
  return {
    path: fake.path,
    setAudio(wav, durationSeconds) {
      writeFileSync(join(folder, "audio.wav"), wav);
      writeFileSync(join(folder, "setup.json"), JSON.stringify({ duration: durationSeconds }));
    },
    calls: fake.calls,
    remove: fake.remove,
  };
}
