// The dir:<path> captions source: one file per video, in any of the three formats; no file, no captions.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DirectoryCaptionSource } from "../../src/captions/directory-source.js";
import { captionFailure, captionFixtures } from "../support/captions.js";

describe("Captions from a folder", () => {
  let root: string;
  let folder: string;
  let source: DirectoryCaptionSource;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "vidrows-captions-"));
    folder = join(root, "captions");
    mkdirSync(folder);
    copyFileSync(new URL("rolling-auto.en.vtt", captionFixtures), join(folder, "aaaaaaaaaaa.vtt"));
    copyFileSync(new URL("manual.en.srt", captionFixtures), join(folder, "bbbbbbbbbbb.srt"));
    copyFileSync(new URL("auto.en.json3", captionFixtures), join(folder, "ccccccccccc.json3"));
    writeFileSync(join(folder, "ddddddddddd.vtt"), "WEBVTT\n\n");
    writeFileSync(join(folder, "eeeeeeeeeee.json3"), "not json");
    // A file outside the folder that a path-traversing id would reach.
    writeFileSync(join(root, "secret.vtt"), "WEBVTT\n\n00:00.000 --> 00:01.000\nsecret\n");
    mkdirSync(join(folder, "fffffffffff.vtt"));
    source = new DirectoryCaptionSource(folder);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reads <video_id>.vtt, rolling repeats removed, lasting to the end of its last cue", async () => {
    const transcript = await source.fetchTranscript("aaaaaaaaaaa");
    expect(transcript.cues).toHaveLength(6);
    expect(transcript.cues[0]?.text).toBe("hey everyone welcome back to the kitchen");
    expect(transcript.durationSeconds).toBe(22.48);
  });

  it("reads <video_id>.srt", async () => {
    const transcript = await source.fetchTranscript("bbbbbbbbbbb");
    expect(transcript.cues.map((cue) => cue.text)[0]).toBe("Hello there.");
    expect(transcript.durationSeconds).toBe(3601.5);
  });

  it("reads <video_id>.json3", async () => {
    const transcript = await source.fetchTranscript("ccccccccccc");
    expect(transcript.cues).toHaveLength(3);
    expect(transcript.durationSeconds).toBe(14.15);
  });

  it("says no_captions when there is no file, an empty file or an unreadable one", async () => {
    for (const id of ["zzzzzzzzzzz", "ddddddddddd", "eeeeeeeeeee"]) {
      const error = await captionFailure(source.fetchTranscript(id));
      expect(error.code, id).toBe("no_captions");
      expect(error.retryable).toBe(false);
    }
  });

  it("says captions_unavailable when the file is there but cannot be read", async () => {
    const error = await captionFailure(source.fetchTranscript("fffffffffff"));
    expect(error.code).toBe("captions_unavailable");
  });

  it("never leaves the folder for an id that is not a video id", async () => {
    for (const id of ["../secret", "..%2Fsecret", "aaaaaaaaaaa/..", "", "aaaaaaaaaaaa"]) {
      const error = await captionFailure(source.fetchTranscript(id));
      expect(error.code, id).toBe("video_unavailable");
    }
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    controller.abort(new Error("shutting down"));
    await expect(source.fetchTranscript("aaaaaaaaaaa", { signal: controller.signal })).rejects.toThrow(
      "shutting down",
    );
  });
});
