import { describe, expect, it } from "vitest";
import { alternatingRounds } from "../../bench/http/alternating-rounds.js";

/** Loads that answer, in turn, the given requests per second, and remember the order they ran in. */
function loads(rates: number[], name: string, order: string[]) {
  let next = 0;
  return async () => {
    order.push(name);
    return { requestsPerSecond: rates[next++]!, name };
  };
}

describe("alternating rounds of an endpoint and its yardstick", () => {
  it("runs them in turn, A-B-A-B, and reports the pair of the median ratio", async () => {
    const order: string[] = [];
    const result = await alternatingRounds(
      3,
      loads([500, 700, 600], "real", order),
      // Ratios 0.5, 0.7, 0.4: the median pair is the first.
      loads([1000, 1000, 1500], "bare", order),
    );
    expect(order).toEqual(["real", "bare", "real", "bare", "real", "bare"]);
    expect(result.ratios).toEqual([0.5, 0.7, 0.4]);
    expect(result.measured.requestsPerSecond).toBe(500);
    expect(result.yardstick.requestsPerSecond).toBe(1000);
  });

  it("takes the lower middle pair of an even count", async () => {
    const result = await alternatingRounds(2, loads([600, 800], "real", []), loads([1000, 1000], "bare", []));
    expect(result.ratios).toEqual([0.6, 0.8]);
    expect(result.measured.requestsPerSecond).toBe(600);
  });

  it("runs one pair when asked for one, and refuses a count that is not a whole number above zero", async () => {
    const order: string[] = [];
    const one = await alternatingRounds(1, loads([300], "real", order), loads([1000], "bare", order));
    expect(order).toEqual(["real", "bare"]);
    expect(one.ratios).toEqual([0.3]);
    for (const rounds of [0, -1, 1.5, Number.NaN]) {
      await expect(alternatingRounds(rounds, loads([1], "real", []), loads([1], "bare", []))).rejects.toThrow(
        /rounds/,
      );
    }
  });
});
