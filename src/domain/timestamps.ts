// Timestamps live in the store as Unix milliseconds and leave the API as UTC `YYYY-MM-DD HH:MM:SS`.

const dayMs = 86_400_000;

// A list page formats dozens of timestamps; Date#toISOString costs more than the rest of an item.
// The calendar part is looked up per day (a page's jobs share a few days), the clock part computed.
const daysFormatted = new Map<number, string>();
const maxDaysFormatted = 4096;

function calendarDay(day: number): string {
  let formatted = daysFormatted.get(day);
  if (formatted === undefined) {
    formatted = new Date(day * dayMs).toISOString().slice(0, 10);
    if (daysFormatted.size >= maxDaysFormatted) daysFormatted.clear();
    daysFormatted.set(day, formatted);
  }
  return formatted;
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);

export function formatTimestamp(ms: number): string;
export function formatTimestamp(ms: number | null): string | null;
export function formatTimestamp(ms: number | null): string | null {
  if (ms === null) return null;
  const day = Math.floor(ms / dayMs);
  const second = Math.floor((ms - day * dayMs) / 1000);
  const clock = `${twoDigits(Math.floor(second / 3600))}:${twoDigits(Math.floor(second / 60) % 60)}:${twoDigits(second % 60)}`;
  return `${calendarDay(day)} ${clock}`;
}

/** The UTC calendar day of a moment, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return calendarDay(Math.floor(ms / dayMs));
}

/** The `count` UTC days ending with the day of `now`, oldest first. */
export function lastUtcDays(now: number, count: number): string[] {
  const days: string[] = [];
  for (let i = count - 1; i >= 0; i--) days.push(utcDay(now - i * dayMs));
  return days;
}
