// PostgreSQL with several machines: an upload taken by one API process is read, byte for byte, by another
// process that shares nothing with it but the database; deleting it leaves no chunk, and its key leaves
// the database's files, so that the ciphertext PostgreSQL keeps of the chunks is noise.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { databaseFiles, markersIn } from "../support/database-files.js";
import { dialects, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { waitFor } from "../support/jobs-api.js";
import { toneFile } from "../support/media-files.js";
import { killAllChildren, type ServerProcess, startServerProcess } from "../support/processes.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

const postgres = dialects.find((d) => d.name === "postgres")!;
const reader = new URL("../support/upload-reader.ts", import.meta.url).pathname;

/** Runs the reader process for `uploadId`; answers its exit code, what it printed and the copy's bytes. */
async function readInAnotherProcess(databaseUrl: string, uploadId: string, folder: string) {
  const copy = join(folder, `read-${randomBytes(4).toString("hex")}`);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" };
  for (const name of Object.keys(env)) if (name.startsWith("VIDROWS_")) delete env[name];
  try {
    const done = await promisify(execFile)(process.execPath, ["--import", "tsx", reader, uploadId, copy], {
      env,
    });
    return { code: 0, printed: JSON.parse(done.stdout) as { path: string }, copy: readFileSync(copy) };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? "", copy: null };
  }
}

describe.skipIf(postgres.skipReason !== null || ffmpegMissing() !== null)(
  "uploads on PostgreSQL across processes",
  () => {
    let database: FreshDatabase | undefined;
    let folder: string | undefined;
    let server: ServerProcess | undefined;

    afterEach(async () => {
      await killAllChildren();
      await database?.drop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("reads in one process what another took, and erases it from the database on deletion", async (context) => {
      database = await freshDatabase("postgres");
      if ("unreadable" in (await databaseFiles(database))) {
        if (process.env.VIDROWS_REQUIRE_POSTGRES === "1")
          throw new Error("the database's files are unreadable");
        context.skip("the database's files cannot be read here");
        return;
      }
      folder = mkdtempSync(join(tmpdir(), "vidrows-across-"));
      // A title no other data holds by chance, in the file's tags: plain text in the upload's bytes.
      const marker = `uploadmarker${randomBytes(8).toString("hex")}`;
      const media = readFileSync(toneFile(folder, 300, "tone.m4a", marker));
      expect(media.byteLength).toBeGreaterThan(2 * 1024 * 1024);
      expect(media.includes(marker)).toBe(true);

      server = await startServerProcess({ databaseUrl: database.url });
      const key = server.printedKey();
      const uploaded = await fetch(`${server.url}/v1/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "audio/mp4" },
        body: media,
      });
      expect(uploaded.status).toBe(201);
      const uploadId = ((await uploaded.json()) as { upload_id: string }).upload_id;

      const read = await readInAnotherProcess(database.url, uploadId, folder);
      expect(read.code).toBe(0);
      expect(read.copy?.equals(media)).toBe(true);
      // The reader's local copy went with its release.
      expect(existsSync(read.printed!.path)).toBe(false);

      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const count = async (table: string) =>
        Number(
          (await client.query(`select count(*) as n from ${table} where upload_id = $1`, [uploadId])).rows[0]
            .n,
        );
      const dataKey = (
        await client.query("select data_key from upload_blobs where upload_id = $1", [uploadId])
      ).rows[0].data_key as Buffer;
      expect(await count("upload_chunks")).toBe(3);
      const filesNow = async () => {
        const files = await databaseFiles(database!);
        if ("unreadable" in files) throw new Error(files.unreadable);
        return files.files;
      };
      // Sealed: the plain bytes never reach the files; the key that opens them is there until deletion.
      expect(markersIn(await filesNow(), [marker])).toEqual([]);
      expect(markersIn(await filesNow(), [dataKey])).not.toEqual([]);

      const deleted = await fetch(`${server.url}/v1/uploads/${uploadId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${key}` },
      });
      expect(deleted.status).toBe(204);
      expect(await count("upload_chunks")).toBe(0);
      expect(await count("upload_blobs")).toBe(0);
      await client.end();
      await waitFor("the upload's key to leave the database's files", async () =>
        markersIn(await filesNow(), [dataKey]).length === 0 ? true : undefined,
      );
      expect(markersIn(await filesNow(), [marker, dataKey])).toEqual([]);

      const again = await readInAnotherProcess(database.url, uploadId, folder);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`no whole upload ${uploadId}`);
    });
  },
);
