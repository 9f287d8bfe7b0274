// A job's status from its videos' counts: processing until every video has settled, then done, failed or partial.
import { describe, expect, it } from "vitest";
import { isSettled, jobStatus, type VideoCounts } from "../../src/domain/job-status.js";

const counts = (queued: number, processing: number, done: number, failed: number): VideoCounts => ({
  queued,
  processing,
  done,
  failed,
});

describe("jobStatus", () => {
  it("is processing while any video is queued or processing", () => {
    expect(jobStatus(counts(1, 0, 0, 0))).toBe("processing");
    expect(jobStatus(counts(0, 1, 0, 0))).toBe("processing");
    expect(jobStatus(counts(1, 1, 5, 5))).toBe("processing");
    expect(jobStatus(counts(0, 1, 9, 0))).toBe("processing");
    expect(jobStatus(counts(1, 0, 0, 9))).toBe("processing");
  });

  it("is done when every video is done", () => {
    expect(jobStatus(counts(0, 0, 1, 0))).toBe("done");
    expect(jobStatus(counts(0, 0, 1000, 0))).toBe("done");
  });

  it("is failed when every video failed", () => {
    expect(jobStatus(counts(0, 0, 0, 1))).toBe("failed");
    expect(jobStatus(counts(0, 0, 0, 7))).toBe("failed");
  });

  it("is partial when some are done and some failed", () => {
    expect(jobStatus(counts(0, 0, 1, 1))).toBe("partial");
    expect(jobStatus(counts(0, 0, 999, 1))).toBe("partial");
    expect(jobStatus(counts(0, 0, 1, 999))).toBe("partial");
  });
});

describe("isSettled", () => {
  it("is true exactly when nothing is queued or processing", () => {
    expect(isSettled(counts(0, 0, 1, 0))).toBe(true);
    expect(isSettled(counts(0, 0, 0, 1))).toBe(true);
    expect(isSettled(counts(1, 0, 0, 0))).toBe(false);
    expect(isSettled(counts(0, 1, 3, 3))).toBe(false);
  });
});
