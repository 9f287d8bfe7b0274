// API key material: the key's form, its stored hash and its masked display.
import { describe, expect, it } from "vitest";
import {
  generateApiKey,
  hashApiKey,
  looksLikeApiKey,
  maskApiKey,
} from "../../src/domain/api-key-material.js";

describe("generateApiKey", () => {
  it("is vr_live_ or vr_test_ and 32 base62 characters", () => {
    expect(generateApiKey("live")).toMatch(/^vr_live_[0-9A-Za-z]{32}$/);
    expect(generateApiKey("test")).toMatch(/^vr_test_[0-9A-Za-z]{32}$/);
  });

  it("never repeats and uses the whole alphabet", () => {
    const keys = Array.from({ length: 500 }, () => generateApiKey("live"));
    expect(new Set(keys).size).toBe(500);
    const seen = new Set(keys.flatMap((k) => [...k.slice(8)]));
    // 16,000 draws from 62 characters: a missing one would mean a biased generator.
    expect(seen.size).toBe(62);
  });
});

describe("looksLikeApiKey", () => {
  it("accepts generated keys and refuses near misses", () => {
    expect(looksLikeApiKey(generateApiKey("live"))).toBe(true);
    expect(looksLikeApiKey(generateApiKey("test"))).toBe(true);
    const good = `vr_live_${"a".repeat(32)}`;
    expect(looksLikeApiKey(good)).toBe(true);
    for (const bad of [
      `vr_prod_${"a".repeat(32)}`,
      `vr_live_${"a".repeat(31)}`,
      `vr_live_${"a".repeat(33)}`,
      `vr_live_${"a".repeat(31)}-`,
      `VR_LIVE_${"a".repeat(32)}`,
      ` ${good}`,
      `${good}\n`,
      "",
    ]) {
      expect(looksLikeApiKey(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("hashApiKey", () => {
  it("is the SHA-256 of the key in lowercase hex", () => {
    // The published SHA-256 test vector for "abc".
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = generateApiKey("live");
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toBe(hashApiKey(generateApiKey("live")));
    expect(hashApiKey(key)).not.toContain(key.slice(8));
  });
});

describe("maskApiKey", () => {
  it("shows the prefix, four asterisks and the last four characters", () => {
    expect(maskApiKey("live", "a1b2")).toBe("vr_live_****a1b2");
    expect(maskApiKey("test", "ZZ09")).toBe("vr_test_****ZZ09");
  });
});
