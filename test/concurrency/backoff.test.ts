// The backoff: doubling (or linear) growth from the first wait, the cap, and the jitter's bounds.
import { describe, expect, it } from "vitest";
import { backoffDelay, noJitter } from "../../src/concurrency/backoff.js";

const lowest = () => 0;
const highest = () => 1;

describe("backoff", () => {
  it("doubles from the first wait after each failure", () => {
    const waits = [1, 2, 3, 4].map((failures) => backoffDelay(failures, { firstMs: 100, jitter: noJitter }));
    expect(waits).toEqual([100, 200, 400, 800]);
  });

  it("grows by the first wait each time when linear", () => {
    const backoff = { firstMs: 100, growth: "linear", jitter: noJitter } as const;
    expect([1, 2, 3, 4].map((failures) => backoffDelay(failures, backoff))).toEqual([100, 200, 300, 400]);
  });

  it("never grows past the cap", () => {
    const backoff = { firstMs: 100, maxMs: 1000, jitter: noJitter };
    expect(backoffDelay(4, backoff)).toBe(800);
    expect(backoffDelay(5, backoff)).toBe(1000);
    expect(backoffDelay(60, backoff)).toBe(1000);
  });

  it("keeps half of the wait fixed and makes half random by default", () => {
    const backoff = { firstMs: 100, maxMs: 1000 };
    expect(backoffDelay(3, backoff, lowest)).toBe(200);
    expect(backoffDelay(3, backoff, highest)).toBe(400);
    expect(backoffDelay(9, backoff, lowest)).toBe(500);
    expect(backoffDelay(9, backoff, highest)).toBe(1000);
  });

  it("spreads the wait between the jitter's bounds", () => {
    const backoff = { firstMs: 1000, jitter: [0.5, 1.5] } as const;
    expect(backoffDelay(2, backoff, lowest)).toBe(1000);
    expect(backoffDelay(2, backoff, () => 0.5)).toBe(2000);
    expect(backoffDelay(2, backoff, highest)).toBe(3000);
    for (let i = 0; i < 100; i++) {
      const wait = backoffDelay(2, backoff);
      expect(wait).toBeGreaterThanOrEqual(1000);
      expect(wait).toBeLessThanOrEqual(3000);
    }
  });
});
