// Timestamps live in the store as Unix milliseconds and leave the API as UTC `YYYY-MM-DD HH:MM:SS`.

export function formatTimestamp(ms: number): string;
export function formatTimestamp(ms: number | null): string | null;
export function formatTimestamp(ms: number | null): string | null {
  if (ms === null) return null;
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** The UTC calendar day of a moment, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const dayMs = 86_400_000;

/** The `count` UTC days ending with the day of `now`, oldest first. */
export function lastUtcDays(now: number, count: number): string[] {
  const days: string[] = [];
  for (let i = count - 1; i >= 0; i--) days.push(utcDay(now - i * dayMs));
  return days;
}
