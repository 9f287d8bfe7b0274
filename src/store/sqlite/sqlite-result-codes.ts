// SQLite's result codes by name, as better-sqlite3 reports them: the store's errors say SQLITE_BUSY,
// SQLITE_CONSTRAINT_UNIQUE..., whichever driver ran the statement.

/** The primary result codes (the low byte of an extended code). */
const primary: readonly (readonly [number, string])[] = [
  [1, "ERROR"],
  [2, "INTERNAL"],
  [3, "PERM"],
  [4, "ABORT"],
  [5, "BUSY"],
  [6, "LOCKED"],
  [7, "NOMEM"],
  [8, "READONLY"],
  [9, "INTERRUPT"],
  [10, "IOERR"],
  [11, "CORRUPT"],
  [12, "NOTFOUND"],
  [13, "FULL"],
  [14, "CANTOPEN"],
  [15, "PROTOCOL"],
  [16, "EMPTY"],
  [17, "SCHEMA"],
  [18, "TOOBIG"],
  [19, "CONSTRAINT"],
  [20, "MISMATCH"],
  [21, "MISUSE"],
  [22, "NOLFS"],
  [23, "AUTH"],
  [24, "FORMAT"],
  [25, "RANGE"],
  [26, "NOTADB"],
  [27, "NOTICE"],
  [28, "WARNING"],
];

/** Each primary code's extended codes, in the order of their second byte (1, 2, 3...). */
const extended: Readonly<Record<string, readonly string[]>> = {
  ERROR: ["MISSING_COLLSEQ", "RETRY", "SNAPSHOT", "RESERVESIZE", "KEY", "UNABLE"],
  IOERR: [
    "READ",
    "SHORT_READ",
    "WRITE",
    "FSYNC",
    "DIR_FSYNC",
    "TRUNCATE",
    "FSTAT",
    "UNLOCK",
    "RDLOCK",
    "DELETE",
    "BLOCKED",
    "NOMEM",
    "ACCESS",
    "CHECKRESERVEDLOCK",
    "LOCK",
    "CLOSE",
    "DIR_CLOSE",
    "SHMOPEN",
    "SHMSIZE",
    "SHMLOCK",
    "SHMMAP",
    "SEEK",
    "DELETE_NOENT",
    "MMAP",
    "GETTEMPPATH",
    "CONVPATH",
    "VNODE",
    "AUTH",
    "BEGIN_ATOMIC",
    "COMMIT_ATOMIC",
    "ROLLBACK_ATOMIC",
    "DATA",
    "CORRUPTFS",
    "IN_PAGE",
  ],
  LOCKED: ["SHAREDCACHE", "VTAB"],
  BUSY: ["RECOVERY", "SNAPSHOT", "TIMEOUT"],
  CANTOPEN: ["NOTEMPDIR", "ISDIR", "FULLPATH", "CONVPATH", "DIRTYWAL", "SYMLINK"],
  CORRUPT: ["VTAB", "SEQUENCE", "INDEX"],
  READONLY: ["RECOVERY", "CANTLOCK", "ROLLBACK", "DBMOVED", "CANTINIT", "DIRECTORY"],
  ABORT: ["", "ROLLBACK"],
  CONSTRAINT: [
    "CHECK",
    "COMMITHOOK",
    "FOREIGNKEY",
    "FUNCTION",
    "NOTNULL",
    "PRIMARYKEY",
    "TRIGGER",
    "UNIQUE",
    "VTAB",
    "ROWID",
    "PINNED",
    "DATATYPE",
  ],
  NOTICE: ["RECOVER_WAL", "RECOVER_ROLLBACK", "RBU"],
  WARNING: ["AUTOINDEX"],
  AUTH: ["USER"],
};

const names = new Map<number, string>();
for (const [code, name] of primary) {
  names.set(code, `SQLITE_${name}`);
  (extended[name] ?? []).forEach((suffix, at) => {
    if (suffix) names.set(code | ((at + 1) << 8), `SQLITE_${name}_${suffix}`);
  });
}

/**
 * The name of an extended result code (2067 is SQLITE_CONSTRAINT_UNIQUE); one this table does not know
 * is named by its primary code, so that checks of a prefix (SQLITE_IOERR...) still hold.
 */
export function sqliteCodeName(code: number): string {
  return names.get(code) ?? names.get(code & 0xff) ?? `SQLITE_UNKNOWN_${code}`;
}
