// Monthly billing cycles anchored at the workspace's creation, as pure date arithmetic.

/**
 * The moment `monthsLater` calendar months after `anchor`, keeping its day of month and time of day.
 * A day the target month lacks is clamped to the month's last day (an anchor on the 31st renews
 * on 30 April and 28 or 29 February), so no cycle ever skips a month.
 */
export function addMonths(anchor: number, monthsLater: number): number {
  const a = new Date(anchor);
  const totalMonths = a.getUTCFullYear() * 12 + a.getUTCMonth() + monthsLater;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(a.getUTCDate(), lastDay);
  return Date.UTC(
    year,
    month,
    day,
    a.getUTCHours(),
    a.getUTCMinutes(),
    a.getUTCSeconds(),
    a.getUTCMilliseconds(),
  );
}

export interface Cycle {
  readonly startedAt: number;
  readonly endsAt: number;
}

/** The cycle that contains `now`, for a workspace created at `anchor` (`now` not before `anchor`). */
export function cycleContaining(anchor: number, now: number): Cycle {
  const a = new Date(anchor);
  const n = new Date(now);
  let months = (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + (n.getUTCMonth() - a.getUTCMonth());
  if (months < 0) months = 0;
  // The estimate can be one ahead (now is earlier in its month than the anchor's day and time).
  while (months > 0 && addMonths(anchor, months) > now) months--;
  while (addMonths(anchor, months + 1) <= now) months++;
  return { startedAt: addMonths(anchor, months), endsAt: addMonths(anchor, months + 1) };
}
