// Timestamps as the API writes them: UTC, `YYYY-MM-DD HH:MM:SS`, the same as the ISO form cut down.
import { describe, expect, it } from "vitest";
import { formatTimestamp, lastUtcDays, utcDay } from "../../src/domain/timestamps.js";

const isoCut = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

describe("formatTimestamp", () => {
  it("writes UTC date and time to the second, milliseconds dropped", () => {
    expect(formatTimestamp(Date.UTC(2026, 10, 22, 7, 5, 9, 999))).toBe("2026-11-22 07:05:09");
    expect(formatTimestamp(0)).toBe("1970-01-01 00:00:00");
    expect(formatTimestamp(Date.UTC(2028, 1, 29, 23, 59, 59))).toBe("2028-02-29 23:59:59");
    expect(formatTimestamp(null)).toBeNull();
  });

  it("agrees with the ISO form for moments across a century, day boundaries included", () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5000; i++) {
      const ms = Math.floor(random() * Date.UTC(2070, 0, 1));
      expect(formatTimestamp(ms)).toBe(isoCut(ms));
      const midnight = Math.floor(ms / 86_400_000) * 86_400_000;
      expect(formatTimestamp(midnight - 1)).toBe(isoCut(midnight - 1));
      expect(formatTimestamp(midnight)).toBe(isoCut(midnight));
    }
  });
});

describe("utcDay and lastUtcDays", () => {
  it("name the UTC calendar day, and the days up to it oldest first", () => {
    const now = Date.UTC(2026, 2, 2, 0, 30);
    expect(utcDay(now)).toBe("2026-03-02");
    expect(lastUtcDays(now, 3)).toEqual(["2026-02-28", "2026-03-01", "2026-03-02"]);
  });
});
