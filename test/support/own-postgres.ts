// A PostgreSQL server of a test's own (initdb in a temporary folder, a free port), to stop and start at
// will without touching the shared server the other suites use.
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const postgresBin = process.env.VIDROWS_TEST_POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";

/** Why an own server cannot be made here, or null when it can. */
export function ownPostgresProblem(): string | null {
  for (const tool of ["initdb", "pg_ctl"]) {
    if (!existsSync(join(postgresBin, tool))) return `${join(postgresBin, tool)} not found`;
  }
  return null;
}

export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** Fast shutdown: open connections are cut, as in a crash or a restart of the server. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it (immediately) and deletes its folder. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// initdb and postgres refuse to run as root: as root, they run as the `postgres` user.
async function postgresUserIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** initdb (trust authentication, no fsync: the data is thrown away) and start on a free port. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-own-pg-"));
  const data = join(folder, "data");
  const ids = await postgresUserIds();
  if (ids) chownSync(folder, ids.uid, ids.gid);
  const options = { ...ids, timeout: 60_000, env: { ...process.env, LC_ALL: "C" } };
  const tool = (name: string, args: string[]) => run(join(postgresBin, name), args, options);
  await tool("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const log = join(folder, "server.log");
  const start = async () => {
    await tool("pg_ctl", ["-D", data, "-o", serverOptions, "-l", log, "-w", "-t", "30", "start"]);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop: async () => {
      await tool("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
    },
    destroy: async () => {
      await tool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]).catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
