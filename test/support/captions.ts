// What the captions suites share: the recorded caption files, tracks in YouTube's json3 shape, and the
// PlatformError a failed fetch must reject with.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { PlatformError } from "../../src/platforms/platform-error.js";

/** The folder of recorded caption files and yt-dlp outputs. */
export const captionFixtures = new URL("../fixtures/captions/", import.meta.url);

/** A recorded file of test/fixtures/captions/, as text. */
export function captionFixture(name: string): string {
  return readFileSync(new URL(name, captionFixtures), "utf8");
}

/** A caption track as YouTube serves it with fmt=json3: one two-second event a line. */
export function json3Track(...lines: string[]): string {
  return JSON.stringify({
    wireMagic: "pb3",
    events: lines.map((line, i) => ({ tStartMs: i * 2000, dDurationMs: 2000, segs: [{ utf8: line }] })),
  });
}

/** The PlatformError `promise` rejects with; the test fails if it resolves or rejects with anything else. */
export async function captionFailure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}
