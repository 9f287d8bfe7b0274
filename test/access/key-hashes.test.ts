// The memory of key hashes: the same hash a fresh one would be, and a bounded number of keys.
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../../src/domain/api-key-material.js";
import { KeyHashes } from "../../src/access/key-hashes.js";

describe("KeyHashes", () => {
  it("gives each key its SHA-256, the first time and every time after", () => {
    const hashes = new KeyHashes(10);
    const keys = Array.from({ length: 5 }, () => generateApiKey("live"));
    for (let round = 0; round < 3; round++) {
      for (const key of keys) expect(hashes.of(key)).toBe(hashApiKey(key));
    }
  });

  it("keeps no more keys than its capacity, and still answers right past it", () => {
    const hashes = new KeyHashes(3);
    const keys = Array.from({ length: 10 }, () => generateApiKey("test"));
    for (const key of keys) expect(hashes.of(key)).toBe(hashApiKey(key));
    const held = (hashes as unknown as { byKey: Map<string, string> }).byKey;
    expect(held.size).toBeLessThanOrEqual(3);
    for (const key of keys) expect(hashes.of(key)).toBe(hashApiKey(key));
  });
});
