// How figures and times are written on the page: numbers in the browser's locale, the API's UTC
// timestamps in the browser's time zone.

export function formatNumber(value: number): string {
  return value.toLocaleString();
}

/** The API's `YYYY-MM-DD HH:MM:SS` (UTC) as a Date. */
export function parseTimestamp(timestamp: string): Date {
  return new Date(`${timestamp.replace(" ", "T")}Z`);
}

/** A timestamp in the browser's time zone, e.g. "Nov 22, 2026, 4:04 PM". */
export function formatTimestamp(timestamp: string): string {
  return parseTimestamp(timestamp).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The browser's time zone, named once on pages that show times. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Seconds into a video as people quote them: `m:ss`, or `h:mm:ss` past an hour (rounded down). */
export function formatVideoTime(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** A file's size as people read one: "840 KB", "17.5 MB", "1.2 GB" (decimal units, as files are sold). */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toLocaleString(undefined, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}
