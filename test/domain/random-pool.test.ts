// The random pool: every byte handed out once, across pool refills.
import { describe, expect, it } from "vitest";
import { pooledRandomBytes } from "../../src/domain/random-pool.js";

describe("pooled random bytes", () => {
  it("never hands out the same IV twice, across many pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) seen.add(pooledRandomBytes(12).toString("hex"));
    expect(seen.size).toBe(5000);
  });

  it("serves a request bigger than the pool from the system directly", () => {
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
  });
});
