// An API timestamp (UTC) written in the browser's time zone, machine-readable in <time datetime>.
import { formatTimestamp, parseTimestamp } from "../lib/format.js";

export function Timestamp({ value, empty = "—" }: { value: string | null | undefined; empty?: string }) {
  if (!value) return <>{empty}</>;
  return <time dateTime={parseTimestamp(value).toISOString()}>{formatTimestamp(value)}</time>;
}
