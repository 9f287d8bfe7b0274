// How long PostgreSQL takes to commit one small durable write on this machine: the floor under any
// endpoint that must not answer before its write is on disk (`POST /v1`).
//
//   DATABASE_URL=postgres://... node dist/bench/bench/postgres/commit-latency.js [commits]
//
// One connection commits a one-row insert again and again, each timed from the client; then the same
// with `synchronous_commit = off` (the commit no longer waits for the log to reach the disk), which
// shows how much of the time is the disk's.
import pg from "pg";
import { percentile } from "../http/paced-load.js";

interface Timing {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

async function timeCommits(client: pg.Client, table: string, commits: number): Promise<Timing> {
  const ms: number[] = [];
  for (let i = 0; i < commits; i++) {
    const started = performance.now();
    await client.query(`insert into ${table} (written_at) values ($1)`, [Date.now()]);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    p50: round(percentile(ms, 0.5)),
    p90: round(percentile(ms, 0.9)),
    p99: round(percentile(ms, 0.99)),
    max: round(ms.at(-1) ?? 0),
  };
}

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new Error("Set DATABASE_URL=postgres://...");
const commits = Number(process.argv[2] ?? 2000);
const table = `commit_latency_probe_${process.pid}`;
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  // A table of its own, logged like the product's tables (a temporary table's rows skip the log).
  await client.query(`create table ${table} (written_at bigint)`);
  const durable = await timeCommits(client, table, commits);
  await client.query("set synchronous_commit = off");
  const unsynced = await timeCommits(client, table, commits);
  const setting = await client.query<{ fsync: string; wal_sync_method: string }>(
    "select current_setting('fsync') as fsync, current_setting('wal_sync_method') as wal_sync_method",
  );
  process.stdout.write(
    `${JSON.stringify({ commits, durableMs: durable, synchronousCommitOffMs: unsynced, ...setting.rows[0] })}\n`,
  );
} finally {
  await client.query(`drop table if exists ${table}`).catch(() => {});
  await client.end();
}
