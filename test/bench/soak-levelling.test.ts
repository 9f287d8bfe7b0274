// The soak's judgement (bench/soak/levelling.ts): start, peak, and whether the last ten minutes (the last
// third of a shorter run) stay within 5%, highest over lowest.
import { describe, expect, it } from "vitest";
import { levelling, type MemorySample, windowSeconds } from "../../bench/soak/levelling.js";

/** Samples every `step` seconds over `seconds`, RSS from `rss(t)`. */
function series(seconds: number, step: number, rss: (t: number) => number): MemorySample[] {
  const samples: MemorySample[] = [];
  for (let t = 0; t <= seconds; t += step)
    samples.push({ atSeconds: t, rssMb: rss(t), anonMb: 0, fileMb: 0 });
  return samples;
}

describe("the soak's levelling-off check", () => {
  it("judges the last ten minutes of a long run, the last third of a short one", () => {
    expect(windowSeconds(1800)).toBe(600);
    expect(windowSeconds(3600)).toBe(600);
    expect(windowSeconds(900)).toBe(300);
    expect(windowSeconds(60)).toBe(20);
  });

  it("reports start, peak and end, and passes a run that rose early and then held", () => {
    // 150 MB to 200 MB over the first ten minutes, then 200-204 MB.
    const result = levelling(
      series(1800, 5, (t) => (t < 600 ? 150 + (50 * t) / 600 : 200 + (t % 60 === 0 ? 4 : 0))),
      1800,
    );
    expect(result.startRssMb).toBe(150);
    expect(result.peakRssMb).toBe(204);
    expect(result.windowFromSeconds).toBe(1200);
    expect(result.windowMinRssMb).toBe(200);
    expect(result.windowMaxRssMb).toBe(204);
    expect(result.windowSpread).toBeCloseTo(0.02, 10);
    expect(result.levelled).toBe(true);
  });

  it("fails a run still growing by a few MB a minute in its last ten minutes", () => {
    // The figures: 149 MB, +6 MB a minute.
    const result = levelling(
      series(1800, 5, (t) => 149 + (6 * t) / 60),
      1800,
    );
    expect(result.windowMinRssMb).toBe(149 + 6 * 20);
    expect(result.windowMaxRssMb).toBe(149 + 6 * 30);
    expect(result.levelled).toBe(false);
  });

  it("counts a spread of exactly 5% as levelled, and just over it as not", () => {
    const at = (last: number) =>
      levelling(
        series(90, 5, (t) => (t < 60 ? 100 : t === 90 ? last : 100)),
        90,
      );
    expect(at(105).levelled).toBe(true);
    expect(at(105.01).levelled).toBe(false);
  });

  it("ignores a peak before the window: only the last stretch is judged", () => {
    const result = levelling(
      series(1800, 5, (t) => (t === 300 ? 400 : 180)),
      1800,
    );
    expect(result.peakRssMb).toBe(400);
    expect(result.levelled).toBe(true);
  });

  it("has nothing to say without samples", () => {
    expect(() => levelling([], 60)).toThrow(/no memory samples/);
  });
});
