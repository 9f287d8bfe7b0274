// Monthly cycles anchored at creation: month ends, leap years, year ends and the exact boundaries.
import { describe, expect, it } from "vitest";
import { addMonths, cycleContaining } from "../../src/domain/billing-cycle.js";

const at = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) =>
  Date.UTC(y, m - 1, d, h, min, s, ms);
const iso = (ms: number) => new Date(ms).toISOString();

describe("addMonths", () => {
  it("keeps the day of month and the time of day", () => {
    expect(iso(addMonths(at(2025, 3, 15, 13, 45, 7, 250), 1))).toBe("2025-04-15T13:45:07.250Z");
    expect(addMonths(at(2025, 3, 15), 0)).toBe(at(2025, 3, 15));
  });

  it("clamps an anchor on the 31st to the last day of shorter months", () => {
    const anchor = at(2025, 1, 31, 9);
    expect(iso(addMonths(anchor, 1))).toBe("2025-02-28T09:00:00.000Z");
    expect(iso(addMonths(anchor, 2))).toBe("2025-03-31T09:00:00.000Z");
    expect(iso(addMonths(anchor, 3))).toBe("2025-04-30T09:00:00.000Z");
  });

  it("gives 29 February in a leap year and 28 February otherwise", () => {
    expect(iso(addMonths(at(2024, 1, 31), 1))).toBe("2024-02-29T00:00:00.000Z");
    expect(iso(addMonths(at(2024, 1, 30), 1))).toBe("2024-02-29T00:00:00.000Z");
    expect(iso(addMonths(at(2100, 1, 29), 1))).toBe("2100-02-28T00:00:00.000Z"); // 2100 is not a leap year
    expect(iso(addMonths(at(2000, 1, 29), 1))).toBe("2000-02-29T00:00:00.000Z"); // 2000 is
  });

  it("keeps an anchor of 29 February to the 28th in common years and the 29th in leap years", () => {
    const anchor = at(2024, 2, 29, 12);
    expect(iso(addMonths(anchor, 12))).toBe("2025-02-28T12:00:00.000Z");
    expect(iso(addMonths(anchor, 13))).toBe("2025-03-29T12:00:00.000Z");
    expect(iso(addMonths(anchor, 48))).toBe("2028-02-29T12:00:00.000Z");
  });

  it("crosses year ends", () => {
    expect(iso(addMonths(at(2025, 12, 31, 23, 59, 59, 999), 1))).toBe("2026-01-31T23:59:59.999Z");
    expect(iso(addMonths(at(2025, 11, 30), 3))).toBe("2026-02-28T00:00:00.000Z");
    expect(iso(addMonths(at(2025, 1, 1), 24))).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("cycleContaining", () => {
  const anchor = at(2025, 1, 31, 12);

  it("starts the first cycle at the anchor itself", () => {
    expect(cycleContaining(anchor, anchor)).toEqual({ startedAt: anchor, endsAt: at(2025, 2, 28, 12) });
  });

  it("puts the last millisecond of a cycle in that cycle, and its end in the next", () => {
    const end = at(2025, 2, 28, 12);
    expect(cycleContaining(anchor, end - 1)).toEqual({ startedAt: anchor, endsAt: end });
    expect(cycleContaining(anchor, end)).toEqual({ startedAt: end, endsAt: at(2025, 3, 31, 12) });
  });

  it("returns to the 31st after a clamped February, counting months from the anchor", () => {
    expect(cycleContaining(anchor, at(2025, 3, 30))).toEqual({
      startedAt: at(2025, 2, 28, 12),
      endsAt: at(2025, 3, 31, 12),
    });
    expect(cycleContaining(anchor, at(2025, 4, 1))).toEqual({
      startedAt: at(2025, 3, 31, 12),
      endsAt: at(2025, 4, 30, 12),
    });
  });

  it("handles a moment earlier in its month than the anchor's day and time", () => {
    const mid = at(2025, 1, 15, 18);
    expect(cycleContaining(mid, at(2025, 3, 15, 17, 59, 59, 999))).toEqual({
      startedAt: at(2025, 2, 15, 18),
      endsAt: at(2025, 3, 15, 18),
    });
    expect(cycleContaining(mid, at(2025, 3, 15, 18))).toEqual({
      startedAt: at(2025, 3, 15, 18),
      endsAt: at(2025, 4, 15, 18),
    });
  });

  it("finds the cycle years later, across leap days", () => {
    const leap = at(2024, 2, 29);
    expect(cycleContaining(leap, at(2027, 2, 28))).toEqual({
      startedAt: at(2027, 2, 28),
      endsAt: at(2027, 3, 29),
    });
    expect(cycleContaining(leap, at(2028, 2, 29))).toEqual({
      startedAt: at(2028, 2, 29),
      endsAt: at(2028, 3, 29),
    });
  });

  it("always contains now, with cycles that follow one another without gaps", () => {
    const anchors = [at(2024, 1, 31, 23, 59, 59, 999), at(2024, 2, 29), at(2025, 8, 30, 6), at(2023, 12, 1)];
    for (const a of anchors) {
      let previous = cycleContaining(a, a);
      for (let step = 1; step <= 60; step++) {
        const next = cycleContaining(a, previous.endsAt);
        expect(next.startedAt).toBe(previous.endsAt);
        expect(next.endsAt).toBe(addMonths(a, step + 1));
        expect(cycleContaining(a, next.endsAt - 1)).toEqual(next);
        previous = next;
      }
    }
  });
});
