// PostgreSQL's CPU time while the benchmark loads an API process: the server runs on the same machine,
// so its processes' utime + stime can be read from /proc, like the API process's own.
import pg from "pg";
import { cpuSecondsOf } from "../support/processes.js";

/** PostgreSQL's CPU seconds over a window, split by who spent them. */
export interface PostgresCpu {
  /** The backends connected to the benchmark's database: the work of its statements. */
  backends: number;
  /**
   * The server's own processes (WAL writer, checkpointer, background writer, autovacuum launcher):
   * shared by every database of the server, so other work on it shows up here too.
   */
  background: number;
}

const backgroundTypes = ["walwriter", "checkpointer", "background writer", "autovacuum launcher"];

/** Measures PostgreSQL's CPU over windows, from a connection to another database of the same server. */
export interface PostgresCpuMeter {
  /** Starts a window; the function it returns ends it and says what was spent. */
  begin(): Promise<() => Promise<PostgresCpu>>;
  close(): Promise<void>;
}

type Snapshot = Map<number, { seconds: number; background: boolean }>;

export async function postgresCpuMeter(adminUrl: string, database: string): Promise<PostgresCpuMeter> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const snapshot = async (): Promise<Snapshot> => {
    // Backends of the database, and autovacuum workers on it; the server's background processes.
    const { rows } = await client.query<{ pid: number; background: boolean }>(
      `select pid, datname is null as background from pg_stat_activity
        where datname = $1 or backend_type = any($2::text[])`,
      [database, backgroundTypes],
    );
    return new Map(
      rows.map((row) => [row.pid, { seconds: cpuSecondsOf(row.pid), background: row.background }]),
    );
  };
  return {
    async begin() {
      const before = await snapshot();
      return async () => {
        const after = await snapshot();
        const spent: PostgresCpu = { backends: 0, background: 0 };
        // A backend that connected within the window counts from zero: its whole life is in it. One
        // that left within it is missed; the pool keeps its connections while loaded, so none do.
        for (const [pid, now] of after) {
          const delta = now.seconds - (before.get(pid)?.seconds ?? 0);
          if (now.background) spent.background += delta;
          else spent.backends += delta;
        }
        return spent;
      };
    },
    close: () => client.end(),
  };
}
