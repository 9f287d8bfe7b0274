// Audio over the service's upload limit, cut by Debian's ffmpeg into pieces under it, each transcribed and
// its times moved by the piece's start; and a server that refuses segment times asked again for plain json.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FfmpegAudioCutter } from "../../src/transcription/audio-pieces.js";
import type { AudioSource } from "../../src/transcription/audio-download.js";
import { findProgram } from "../../src/platforms/executables.js";
import { OpenAiTranscriber } from "../../src/transcription/openai-transcriber.js";
import { SpeechToText } from "../../src/transcription/speech-to-text.js";
import { wavBytes } from "../support/fake-audio-ytdlp.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
} from "../support/fake-transcription.js";

function ffmpegPath(): string | null {
  try {
    return findProgram("ffmpeg", undefined, "This test");
  } catch {
    return null;
  }
}
const ffmpeg = ffmpegPath();
if (ffmpeg === null)
  console.warn("Skipping the ffmpeg cutting tests: ffmpeg is not installed (apt-get install -y ffmpeg).");

/** An audio source that "downloads" a WAV of `seconds` into the folder it is given. */
function wavSource(seconds: number, reportedSeconds: number | undefined): AudioSource {
  return {
    async download(_url, _videoId, folder) {
      const path = join(folder, "audio.wav");
      writeFileSync(path, wavBytes(seconds));
      return { path, durationSeconds: reportedSeconds };
    },
  };
}

describe("transcribing audio", () => {
  let service: FakeTranscription;
  let tempRoot: string;

  beforeAll(async () => {
    // One segment per piece, over the piece's first second, naming the bytes it received.
    service = await startFakeTranscription((upload) =>
      verboseReply([[0.5, 1.5, `piece of ${upload.fileBytes}`]]),
    );
    tempRoot = mkdtempSync(join(tmpdir(), "vidrows-pieces-"));
  });
  afterAll(async () => {
    await service?.close();
    rmSync(tempRoot, { recursive: true, force: true });
  });

  function speechToText(seconds: number, reported: number | undefined, maxUploadBytes: number) {
    return new SpeechToText({
      audio: wavSource(seconds, reported),
      transcriber: new OpenAiTranscriber({
        baseUrl: service.url,
        apiKey: undefined,
        model: "m",
        requestTimeoutMs: 10_000,
      }),
      cutter: ffmpeg === null ? undefined : new FfmpegAudioCutter(ffmpeg),
      maxUploadBytes,
      tempRoot,
      retryBaseMs: 1,
    });
  }

  it.skipIf(ffmpeg === null)(
    "cuts audio over the limit into pieces under it and offsets each piece's times",
    async () => {
      const before = service.uploads.length;
      // 30 s of 8 kHz 16-bit mono is 480 KB; the limit of 100 KB needs at least five pieces.
      const transcript = await speechToText(30, undefined, 100_000).transcribe(
        "https://example.test/v",
        "cutCutCut01",
      );
      const uploads = service.uploads.slice(before);
      expect(uploads.length).toBeGreaterThanOrEqual(5);
      for (const upload of uploads) expect(upload.fileBytes).toBeLessThanOrEqual(100_000);
      const starts = transcript.cues.map((cue) => cue.startMs);
      expect(starts[0]).toBe(500);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      // Each piece's cue starts half a second into it: the gaps between cues are the pieces' lengths, which add up.
      const pieceMs = starts.slice(1).map((start, i) => start - (starts[i] as number));
      expect(pieceMs.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(30_000);
      expect(transcript.durationSeconds).toBeCloseTo(30, 0);
      expect(readdirSync(tempRoot)).toEqual([]);
    },
  );

  it("sends small audio whole, without cutting", async () => {
    const before = service.uploads.length;
    const transcript = await speechToText(2, 2, 100_000).transcribe("https://example.test/v", "wholeWhole1");
    expect(service.uploads.length).toBe(before + 1);
    expect(service.uploads[before]?.fileBytes).toBe(wavBytes(2).length);
    expect(transcript.cues).toEqual([{ startMs: 500, endMs: 1500, text: `piece of ${wavBytes(2).length}` }]);
  });

  it("asks for plain json once the server refuses verbose_json, and spans the piece with its text", async () => {
    service.respondWith((upload) =>
      upload.fields.response_format?.[0] === "verbose_json"
        ? { status: 400, json: { error: { message: "response_format verbose_json is not supported" } } }
        : { json: { text: "Only words." } },
    );
    try {
      const before = service.uploads.length;
      const transcript = await speechToText(2, 42, 100_000).transcribe(
        "https://example.test/v",
        "plainPlain1",
      );
      expect(service.uploads.slice(before).map((u) => u.fields.response_format?.[0])).toEqual([
        "verbose_json",
        "json",
      ]);
      expect(transcript.cues).toEqual([{ startMs: 0, endMs: 42_000, text: "Only words." }]);
    } finally {
      service.respondWith((upload) => verboseReply([[0.5, 1.5, `piece of ${upload.fileBytes}`]]));
    }
  });

  it("fails audio over the limit when there is no ffmpeg to cut it, leaving no file", async () => {
    const noCutter = new SpeechToText({
      audio: wavSource(3, 3),
      transcriber: new OpenAiTranscriber({
        baseUrl: service.url,
        apiKey: undefined,
        model: "m",
        requestTimeoutMs: 10_000,
      }),
      maxUploadBytes: 10_000,
      tempRoot,
    });
    await expect(noCutter.transcribe("https://example.test/v", "tooLarge001")).rejects.toMatchObject({
      code: "transcription_failed",
    });
    expect(readdirSync(tempRoot)).toEqual([]);
    expect(statSync(tempRoot).isDirectory()).toBe(true);
  });
});
