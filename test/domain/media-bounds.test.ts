// The bounds a video cannot pass: from its plan's longest video and what its workspace's credits pay for.
import { describe, expect, it } from "vitest";
import {
  audioBytesBound,
  BoundExceeded,
  creditsLeft,
  inMegabytes,
  lengthBound,
  longestPayableSeconds,
  transcriptCharsBound,
} from "../../src/domain/media-bounds.js";
import { retryAfterMs } from "../../src/domain/retry-after.js";

const room = (balance: number, usedThisCycle = 0, hardCap: number | null = null) => ({
  balance,
  usedThisCycle,
  hardCap,
});

describe("what the credits pay for", () => {
  it("is the balance, or what the hard cap leaves when that is less, never below 0", () => {
    expect(creditsLeft(room(100))).toBe(100);
    expect(creditsLeft(room(100, 30, 50))).toBe(20);
    expect(creditsLeft(room(10, 30, 500))).toBe(10);
    expect(creditsLeft(room(100, 60, 50))).toBe(0);
    expect(creditsLeft(room(-5))).toBe(0);
  });

  it("gives whole minutes at the rate, up to the plan's longest video", () => {
    expect(longestPayableSeconds(720, room(100), 2)).toBe(50 * 60);
    expect(longestPayableSeconds(720, room(101), 2)).toBe(50 * 60);
    expect(longestPayableSeconds(30, room(100_000), 2)).toBe(30 * 60);
    expect(longestPayableSeconds(720, room(1), 2)).toBe(0);
  });
});

describe("lengthBound", () => {
  it("is the plan's longest video when the credits pay for more, failing a longer one video_unavailable", () => {
    expect(lengthBound(120, room(10_000), 2)).toEqual({
      maxSeconds: 7200,
      code: "video_unavailable",
      named: "the plan's longest video (120 minutes)",
    });
  });

  it("is what the balance pays for when that is less, failing a longer one insufficient_credits", () => {
    expect(lengthBound(720, room(100), 2)).toMatchObject({ maxSeconds: 3000, code: "insufficient_credits" });
    expect(lengthBound(720, room(100), 2).named).toContain("50 minutes at 2 credits a minute");
  });

  it("is what the hard cap leaves when that is least, failing a longer one hard_cap_reached", () => {
    expect(lengthBound(720, room(1000, 90, 100), 2)).toMatchObject({
      maxSeconds: 300,
      code: "hard_cap_reached",
    });
  });
});

describe("byte and character bounds", () => {
  it("bounds audio at the generous bit rate for the longest length, with room for headers", () => {
    // 12 hours at 320 kbit/s: 1.728 GB, and a megabyte of slack.
    expect(audioBytesBound(720 * 60, 320)).toBe(1_728_000_000 + 1024 * 1024);
    expect(audioBytesBound(0, 320)).toBe(1024 * 1024);
    expect(inMegabytes(1_728_000_000)).toBe("1728 MB");
    expect(inMegabytes(2_500_000)).toBe("2.5 MB");
  });

  it("allows the characters a minute for each started minute, at least one", () => {
    expect(transcriptCharsBound(0, 5000)).toBe(5000);
    expect(transcriptCharsBound(59, 5000)).toBe(5000);
    expect(transcriptCharsBound(61, 5000)).toBe(10_000);
  });

  it("says whether a video past a bound may be tried again: not for its length, yes for credits", () => {
    expect(new BoundExceeded("video_unavailable", "x").retryable).toBe(false);
    expect(new BoundExceeded("insufficient_credits", "x").retryable).toBe(true);
    expect(new BoundExceeded("hard_cap_reached", "x").retryable).toBe(true);
  });
});

describe("retryAfterMs", () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name];
  const now = Date.UTC(2026, 10, 27, 22, 0, 0);

  it("reads seconds, an HTTP date, and OpenAI's milliseconds", () => {
    expect(retryAfterMs(headers({ "retry-after": "30" }), now)).toBe(30_000);
    expect(retryAfterMs(headers({ "retry-after": " 2.5 " }), now)).toBe(2500);
    expect(retryAfterMs(headers({ "retry-after": "Fri, 27 Nov 2026 22:00:45 GMT" }), now)).toBe(45_000);
    expect(retryAfterMs(headers({ "retry-after-ms": "750", "retry-after": "30" }), now)).toBe(750);
  });

  it("asks for no wait for a date past, and for none at all for nothing or garbage", () => {
    expect(retryAfterMs(headers({ "retry-after": "Fri, 27 Nov 2026 21:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "-3" }), now)).toBeUndefined();
  });
});
