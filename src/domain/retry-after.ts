// The wait an HTTP answer asks for before the next try: `Retry-After` in seconds or as an HTTP date, or
// OpenAI's `retry-after-ms`; read the same way for the language model and the transcription service.

/** The wait `header` asks for in milliseconds, if it asks for any; a date in the past asks for none. */
export function retryAfterMs(
  header: (name: string) => string | null | undefined,
  now = Date.now(),
): number | undefined {
  const milliseconds = Number.parseFloat(header("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = header("retry-after")?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  // An HTTP date names its day and month in letters; anything else ("-3", "soon") asks for nothing.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
