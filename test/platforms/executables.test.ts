// Finding yt-dlp and ffmpeg, one finder for every part: a missing one stops a worker at start-up, naming the
// program and the variable that points at it.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSpeechToText } from "../../src/transcription/create-speech-to-text.js";
import { findProgram } from "../../src/platforms/executables.js";

describe("findProgram", () => {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-programs-"));
  const program = join(folder, "ffmpeg");
  writeFileSync(program, "#!/bin/sh\n");
  chmodSync(program, 0o755);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("finds the program on PATH, or where its variable points", () => {
    expect(findProgram("ffmpeg", undefined, "Speech-to-text", `/nowhere:${folder}`)).toBe(program);
    expect(findProgram("ffmpeg", program, "Speech-to-text", "")).toBe(program);
  });

  it("names the program and its variable when it is missing", () => {
    expect(() => findProgram("ffmpeg", undefined, "Speech-to-text", "/nowhere")).toThrow(
      /^Speech-to-text needs ffmpeg, which is not on PATH.*VIDROWS_FFMPEG_PATH/,
    );
    expect(() => findProgram("ffmpeg", join(folder, "gone"), "Speech-to-text", "")).toThrow(
      /VIDROWS_FFMPEG_PATH is ".*gone", but that is not an executable file/,
    );
  });

  it("stops building speech-to-text when ffmpeg is missing", () => {
    const settings = {
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: undefined,
      model: "m",
      maxUploadBytes: 1_000_000,
      requestTimeoutSeconds: 5,
      ytDlpPath: program,
      ffmpegPath: join(folder, "no-ffmpeg"),
    };
    expect(() => createSpeechToText(settings)).toThrow(/VIDROWS_FFMPEG_PATH/);
  });
});
