// Why the database in DATABASE_URL could not be opened at start-up, in words that say what to do.
import { ConfigError, type DatabaseTarget } from "../config.js";

type Cause = { code?: unknown; message?: unknown; cause?: unknown; hostname?: unknown };

/** The error that says most: a migration failure wraps the driver's in `cause`. */
function rootCause(error: unknown): Cause {
  let current = error as Cause;
  while (current?.cause && typeof current.cause === "object") current = current.cause as Cause;
  return current ?? {};
}

const startAgain = "then start again.";

/** Where a postgres:// URL points, without its user's password. */
function postgresParts(url: string) {
  const parsed = new URL(url);
  const host = parsed.searchParams.get("host") ?? (parsed.hostname || "localhost");
  const port = parsed.port || "5432";
  const database = decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username);
  return { host, port, user: decodeURIComponent(parsed.username), database };
}

function explainPostgres(url: string, cause: Cause): ConfigError | null {
  const { host, port, user, database } = postgresParts(url);
  const where = `${host}:${port}`;
  const message = typeof cause.message === "string" ? cause.message : String(cause.code);
  switch (cause.code) {
    case "3D000": // invalid_catalog_name
      return new ConfigError(
        `The database "${database}" named in DATABASE_URL does not exist on the PostgreSQL server at ${where}.`,
        `Create it, e.g. \`createdb -h ${host} -p ${port}${user ? ` -U ${user}` : ""} ${database}\`, ${startAgain}`,
      );
    case "ECONNREFUSED":
      return new ConfigError(
        `Nothing accepts connections at ${where}, the PostgreSQL server in DATABASE_URL (connection refused).`,
        `Start PostgreSQL there, or correct the host and port in DATABASE_URL, ${startAgain}`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new ConfigError(
        `The host "${host}" in DATABASE_URL cannot be resolved (${cause.code}).`,
        `Correct the host name in DATABASE_URL, ${startAgain}`,
      );
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return new ConfigError(
        `The PostgreSQL server in DATABASE_URL (${where}) cannot be reached (${cause.code}).`,
        `Check the host and port in DATABASE_URL and that a firewall lets this machine through, ${startAgain}`,
      );
    case "28P01": // invalid_password
    case "28000": // invalid_authorization_specification (pg_hba.conf)
      return new ConfigError(
        `The PostgreSQL server at ${where} refused the user "${user}" of DATABASE_URL: ${message}.`,
        `Correct the user and password in DATABASE_URL (or the server's pg_hba.conf), ${startAgain}`,
      );
    case "42501": // insufficient_privilege
      return new ConfigError(
        `The user "${user}" of DATABASE_URL may not create vidrows's tables in "${database}": ${message}.`,
        `Grant it the right (e.g. \`GRANT ALL ON SCHEMA public TO ${user || "<user>"}\`), or use the database's owner, ${startAgain}`,
      );
  }
  if (/timeout exceeded when trying to connect|Connection terminated/.test(message)) {
    return new ConfigError(
      `The PostgreSQL server in DATABASE_URL (${where}) did not answer: ${message}.`,
      `Check that it runs and accepts connections from this machine, ${startAgain}`,
    );
  }
  return null;
}

function explainSqlite(path: string, cause: Cause): ConfigError | null {
  const code = typeof cause.code === "string" ? cause.code : "";
  const message = typeof cause.message === "string" ? cause.message : code;
  if (code.startsWith("SQLITE_CANTOPEN")) {
    return new ConfigError(
      `The SQLite file "${path}" in DATABASE_URL cannot be opened (${message}).`,
      `Check that it is a file, not a folder, and that this process may read and write it and its folder, ${startAgain}`,
    );
  }
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
    return new ConfigError(
      `"${path}" in DATABASE_URL is not a SQLite database vidrows can use (${message}).`,
      `Point DATABASE_URL at vidrows's database file, or at a path where it may create one, ${startAgain}`,
    );
  }
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_IOERR") || code === "SQLITE_FULL") {
    return new ConfigError(
      `The SQLite file "${path}" in DATABASE_URL cannot be written (${message}).`,
      `Free space on its disk, or let this process write the file, its -wal and -shm files and its folder, ${startAgain}`,
    );
  }
  return null;
}

/**
 * The failure to open or migrate `target` as a ConfigError naming DATABASE_URL and the fix, or null
 * when it is not one a setting or the operator can fix (a bug: it is reported as it is).
 */
export function explainStoreFailure(target: DatabaseTarget, error: unknown): ConfigError | null {
  if (error instanceof ConfigError) return error;
  const cause = rootCause(error);
  return target.kind === "postgres" ? explainPostgres(target.url, cause) : explainSqlite(target.path, cause);
}
