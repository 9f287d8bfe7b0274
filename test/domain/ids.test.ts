// Identifiers: type prefix, fixed length, a readable alphabet, and sorting by creation time.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/domain/ids.js";

// Crockford's base32 in lowercase: no i, l, o or u.
const body = /^[0-9a-hjkmnp-tv-z]{26}$/;

describe("newId", () => {
  it("is the prefix, an underscore and 26 characters of Crockford base32", () => {
    for (const prefix of ["ws", "key", "job", "vid", "sch", "wh", "evt", "req", "dlv", "led"] as const) {
      const id = newId(prefix);
      expect(id.startsWith(`${prefix}_`)).toBe(true);
      expect(id).toHaveLength(prefix.length + 1 + 26);
      expect(id.slice(prefix.length + 1)).toMatch(body);
    }
  });

  it("differs between ids made in the same millisecond", () => {
    const now = Date.UTC(2025, 0, 1);
    const ids = new Set(Array.from({ length: 1000 }, () => newId("job", now)));
    expect(ids.size).toBe(1000);
    // They share the time part and differ in the random part.
    expect(new Set([...ids].map((id) => id.slice(0, 14))).size).toBe(1);
  });

  it("sorts by creation time, one millisecond apart and years apart", () => {
    const times = [
      0,
      1,
      31,
      32,
      1023,
      1024,
      Date.UTC(2001, 0, 1),
      Date.UTC(2025, 5, 1),
      Date.UTC(2025, 5, 1) + 1,
    ];
    times.push(Date.UTC(2999, 11, 31));
    const ids = times.map((t) => newId("sch", t));
    expect([...ids].sort()).toEqual(ids);
  });

  it("sorts a shuffled batch back into time order", () => {
    const start = Date.UTC(2025, 2, 3, 4, 5, 6);
    const made = Array.from({ length: 200 }, (_, i) => ({
      t: start + i * 37,
      id: newId("vid", start + i * 37),
    }));
    const shuffled = [...made].sort((a, b) => (a.id.slice(-4) < b.id.slice(-4) ? -1 : 1));
    expect(shuffled.map((m) => m.id).sort()).toEqual(made.map((m) => m.id));
  });
});
