// What keeping an upload costs in each upload store: the time to store a file streamed from disk, the
// bytes it takes there (and on PostgreSQL the database's growth and its WAL), the time to read it back as
// a stream and as a local file, and the time to remove it. Run once per store, so that each process's
// peak memory is its store's:
//
//   node --import tsx bench/uploads/upload-stores.ts --store=database --repeat=3 file...
//
// `--store` is folder, database (PostgreSQL at DATABASE_URL; a database of its own is made and dropped)
// or s3 (the local fake of test/support/fake-s3.ts, in memory in a process of its own: the SDK's and
// HTTP's cost only, and this process's peak memory is the store's, not the fake's).
import { spawn } from "node:child_process";
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { s3Location } from "../../src/config/s3-settings.js";
import { newId } from "../../src/domain/ids.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { openStore } from "../../src/store/database.js";
import { DatabaseUploadStore } from "../../src/uploads/database-upload-store.js";
import { FolderUploadStore } from "../../src/uploads/folder-upload-store.js";
import { S3UploadStore } from "../../src/uploads/s3-upload-store.js";
import type { UploadStore } from "../../src/uploads/upload-store.js";

/** The fake in a process of its own: prints its endpoint, then serves until killed. */
const fakeS3Script = new URL("./fake-s3-process.ts", import.meta.url).pathname;

/** The bucket's listing as the fake answers it (signed with any key of the right id: the fake checks only that). */
async function fetchListing(endpoint: string): Promise<string> {
  const answer = await fetch(`${endpoint}/measure?list-type=2&prefix=uploads/`, {
    headers: { authorization: "AWS4-HMAC-SHA256 Credential=AKIAMEASURE/listing" },
  });
  return answer.text();
}

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const kind = option("store") ?? "folder";
const repeat = Number(option("repeat") ?? "3");
const files = args.filter((a) => !a.startsWith("--"));

/** What the store holds now, in bytes, and (PostgreSQL) the WAL position, for differences. */
interface Footprint {
  stored(): Promise<number>;
  wal(): Promise<number | null>;
}

async function opened(): Promise<{ store: UploadStore; footprint: Footprint; close(): Promise<void> }> {
  if (kind === "folder") {
    const folder = mkdtempSync(join(tmpdir(), "vidrows-measure-"));
    // What the files take on disk (their blocks), not only their length.
    const sizes = () =>
      readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).blocks * 512, 0);
    return {
      store: new FolderUploadStore(folder),
      footprint: { stored: async () => sizes(), wal: async () => null },
      close: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  if (kind === "s3") {
    const fake = spawn(process.execPath, ["--import", "tsx", fakeS3Script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const endpoint = await new Promise<string>((resolve) =>
      fake.stdout.once("data", (d: Buffer) => resolve(String(d).trim())),
    );
    process.env.AWS_ACCESS_KEY_ID = "AKIAMEASURE";
    process.env.AWS_SECRET_ACCESS_KEY = "measure";
    const store = new S3UploadStore(s3Location("s3://measure/uploads", { VIDROWS_S3_ENDPOINT: endpoint }));
    // What the bucket holds, from its listing.
    const stored = async () => {
      const listed = await fetchListing(endpoint);
      return [...listed.matchAll(/<Size>(\d+)<\/Size>/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    return {
      store,
      footprint: { stored, wal: async () => null },
      close: async () => {
        fake.kill();
      },
    };
  }
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `vidrows_measure_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const store = openStore({ kind: "postgres", url: url.toString() });
  await migrateToLatest(store);
  const one = async (query: string) => (await admin.query(query)).rows[0] as Record<string, string>;
  return {
    store: new DatabaseUploadStore(store.db, { afterDeletion: () => {} }),
    footprint: {
      stored: async () => Number((await one(`select pg_database_size('${name}') as n`)).n),
      wal: async () => Number((await one("select (pg_current_wal_insert_lsn() - '0/0')::bigint as n")).n),
    },
    close: async () => {
      await store.close();
      await admin.query(`drop database ${name}`);
      await admin.end();
    },
  };
}

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const mib = (bytes: number) => (Number(bytes) / (1024 * 1024)).toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

const { store, footprint, close } = await opened();
try {
  for (const file of files) {
    for (let run = 0; run < repeat; run++) {
      const id = newId("upl");
      const before = await footprint.stored();
      const walBefore = await footprint.wal();
      const [bytes, writeMs] = await timed(() => store.write(id, createReadStream(file)));
      const grown = (await footprint.stored()) - before;
      const walAfter = await footprint.wal();
      const [, readMs] = await timed(async () => pipeline(await store.read(id), discard()));
      const [, localMs] = await timed(async () => (await store.localFile(id)).release());
      const [, removeMs] = await timed(() => store.remove(id));
      const wal = walBefore === null || walAfter === null ? "" : ` wal ${mib(walAfter - walBefore)} MiB`;
      console.log(
        `${kind} ${basename(file)} ${mib(bytes)} MiB: store ${seconds(writeMs)} s, grew ${mib(grown)} MiB${wal}, read ${seconds(readMs)} s, local file ${seconds(localMs)} s, remove ${seconds(removeMs)} s`,
      );
    }
  }
  console.log(`${kind} peak rss ${mib(process.resourceUsage().maxRSS * 1024)} MiB`);
} finally {
  await close();
}
