// What a done video costs: one credit per started minute of its duration, at least one.
import { describe, expect, it } from "vitest";
import { creditsForDuration } from "../../src/domain/pricing.js";

describe("creditsForDuration", () => {
  it("charges one credit per started minute of the duration in whole seconds, as duration_seconds shows it", () => {
    const cases: [number, number][] = [
      [1, 1],
      [30, 1],
      [59.9, 1],
      [60, 1],
      [60.001, 1],
      [60.029, 1],
      [60.499, 1],
      [60.5, 2],
      [61, 2],
      [90, 2],
      [120, 2],
      [121, 3],
      [600, 10],
      [601, 11],
      [3600, 60],
      [3601, 61],
      [10 * 3600, 600],
    ];
    for (const [seconds, credits] of cases) expect(creditsForDuration(seconds), `${seconds} s`).toBe(credits);
  });

  it("charges at least one credit, also for a zero, negative or unknown duration", () => {
    for (const seconds of [0, -0, 0.001, -5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(creditsForDuration(seconds), `${seconds} s`).toBe(1);
    }
  });

  it("charges a transcribed video its rate per started minute, at least one minute's worth", () => {
    expect(creditsForDuration(90, 2)).toBe(4);
    expect(creditsForDuration(60, 2)).toBe(2);
    expect(creditsForDuration(0, 3)).toBe(3);
  });
});
