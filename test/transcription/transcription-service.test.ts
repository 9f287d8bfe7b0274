// The transcription service as a hostile or busy server is: its Retry-After waited for up to a limit, its
// refusal of segment times answered per request, and its answers read no further than a bound.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlatformError } from "../../src/platforms/platform-error.js";
import type { AudioSource } from "../../src/transcription/audio-download.js";
import { OpenAiTranscriber } from "../../src/transcription/openai-transcriber.js";
import { SpeechToText } from "../../src/transcription/speech-to-text.js";
import { TranscriptionError } from "../../src/transcription/transcriber.js";
import { wavBytes } from "../support/fake-audio-ytdlp.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  type TranscriptionReply,
  verboseReply,
} from "../support/fake-transcription.js";

const heard = verboseReply([[0.5, 1.5, "Words."]]);

describe("the transcription service", () => {
  let service: FakeTranscription;
  let tempRoot: string;
  let audioPath: string;

  beforeAll(async () => {
    service = await startFakeTranscription(() => heard);
    tempRoot = mkdtempSync(join(tmpdir(), "vidrows-service-"));
    audioPath = join(tempRoot, "piece.wav");
    writeFileSync(audioPath, wavBytes(2));
  });
  afterEach(() => service.respondWith(() => heard));
  afterAll(async () => {
    await service?.close();
    rmSync(tempRoot, { recursive: true, force: true });
  });

  function transcriber(maxAnswerBytes?: number) {
    return new OpenAiTranscriber({
      baseUrl: service.url,
      apiKey: undefined,
      model: "m",
      requestTimeoutMs: 30_000,
      maxAnswerBytes,
    });
  }

  /** Speech-to-text of a 2 s WAV, the service's answers scripted in turn (the last one repeated). */
  function speechToText(replies: TranscriptionReply[], maxRetryAfterMs = 5000) {
    let turn = 0;
    service.respondWith(() => replies[Math.min(turn++, replies.length - 1)] as TranscriptionReply);
    const audio: AudioSource = {
      async download(_url, _id, folder) {
        const path = join(folder, "audio.wav");
        writeFileSync(path, wavBytes(2));
        return { path, durationSeconds: 2 };
      },
    };
    return new SpeechToText({
      audio,
      transcriber: transcriber(),
      maxUploadBytes: 10_000_000,
      tempRoot,
      attempts: 3,
      retryBaseMs: 1,
      maxRetryAfterMs,
    });
  }

  const busy = (retryAfter: string): TranscriptionReply => ({
    status: 429,
    json: { error: { message: "Rate limit reached" } },
    headers: { "retry-after": retryAfter },
  });

  it("waits the seconds a 429's Retry-After asks for before trying again", async () => {
    const before = service.uploads.length;
    const transcript = await speechToText([busy("1"), heard]).transcribe(
      "https://example.test/v",
      "waitSecs01",
    );
    const [refused, accepted] = service.uploads.slice(before);
    expect(transcript.cues.map((cue) => cue.text)).toEqual(["Words."]);
    // The backoff alone is 1 ms: the second try came only after the second the service asked for.
    expect((accepted?.receivedAt ?? 0) - (refused?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("waits until the HTTP date a Retry-After names", async () => {
    const before = service.uploads.length;
    const at = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
    await speechToText([busy(at.toUTCString()), heard]).transcribe("https://example.test/v", "waitDate01");
    const [, accepted] = service.uploads.slice(before);
    expect(accepted?.receivedAt ?? 0).toBeGreaterThanOrEqual(at.getTime() - 1000);
    expect(service.uploads.length).toBe(before + 2);
  });

  it("fails at once, retryable, when the service asks for a wait past the limit", async () => {
    const before = service.uploads.length;
    const failure = await speechToText([busy("30"), heard], 2000)
      .transcribe("https://example.test/v", "waitLong01")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TranscriptionError);
    expect((failure as TranscriptionError).code).toBe("transcription_failed");
    expect((failure as Error).message).toContain("30 s");
    expect((failure as Error).message).toContain("VIDROWS_TRANSCRIBE_MAX_RETRY_AFTER_SECONDS");
    expect(service.uploads.length).toBe(before + 1);
  });

  it("asks for plain json only in the request the server refused segment times in", async () => {
    let refusals = 1;
    service.respondWith((upload) =>
      upload.fields.response_format?.[0] === "verbose_json" && refusals-- > 0
        ? { status: 400, json: { error: { message: "response_format verbose_json is not supported" } } }
        : upload.fields.response_format?.[0] === "json"
          ? { json: { text: "Untimed words." } }
          : heard,
    );
    const before = service.uploads.length;
    const once = transcriber();
    const piece = { path: audioPath, durationSeconds: 2 };
    const first = await once.transcribe(piece);
    const second = await once.transcribe(piece);
    expect(service.uploads.slice(before).map((u) => u.fields.response_format?.[0])).toEqual([
      "verbose_json",
      "json",
      "verbose_json",
    ]);
    expect(first).toEqual({
      segments: [{ startSeconds: 0, endSeconds: 2, text: "Untimed words." }],
      timed: false,
    });
    expect(second.timed).toBe(true);
  });

  it("fails the video video_unavailable, naming the bound, for an answer past it", async () => {
    service.respondWith(() => ({ json: { text: "word ".repeat(20_000) } }));
    const failure = await transcriber(10_000)
      .transcribe({ path: audioPath, durationSeconds: 2 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformError);
    expect(failure).toMatchObject({ code: "video_unavailable", retryable: false });
    expect((failure as Error).message).toContain("VIDROWS_TRANSCRIBE_MAX_ANSWER_BYTES");
  });

  it("stops reading an answer that never ends at the bound, and does not try it again", async () => {
    const before = service.uploads.length;
    const failure = await speechToText([{ endless: true }])
      .transcribe("https://example.test/v", "endless001")
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "video_unavailable" });
    const uploads = service.uploads.slice(before);
    expect(uploads).toHaveLength(1);
    // The default bound is 16 MB; the server got no further than that and a few socket buffers.
    expect(uploads[0]?.bytesSent).toBeGreaterThan(16_000_000);
    expect(uploads[0]?.bytesSent).toBeLessThan(64_000_000);
  });
});
