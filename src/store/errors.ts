// Recognising database errors that mean something to the caller, in both dialects.

/** A unique or primary-key constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

// Connection-level failures: the database is down, unreachable, restarting or out of connections.
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "08000",
  "08003",
  "08006",
]);

// SQLite's outages are its files, not a connection: the disk is full (SQLITE_FULL), the files cannot be
// written or read (SQLITE_IOERR_WRITE, _FSYNC, _SHMSIZE...), were made read-only (SQLITE_READONLY_*),
// cannot be opened (SQLITE_CANTOPEN), or another process held the write lock past busy_timeout
// (SQLITE_BUSY_*). Each passes once the operator frees space or restores the permissions; the codes
// come with extended suffixes, hence prefixes.
const sqliteUnavailablePrefixes = [
  "SQLITE_FULL",
  "SQLITE_IOERR",
  "SQLITE_READONLY",
  "SQLITE_CANTOPEN",
  "SQLITE_BUSY",
];

/** The database cannot serve now, through no fault of the request: the caller may try again later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string") {
    if (unavailableCodes.has(e.code)) return true;
    const code = e.code;
    if (sqliteUnavailablePrefixes.some((prefix) => code.startsWith(prefix))) return true;
  }
  // node-postgres reports a dropped connection without a code.
  return (
    typeof e?.message === "string" &&
    /Connection terminated|timeout exceeded when trying to connect|is not queryable/.test(e.message)
  );
}
