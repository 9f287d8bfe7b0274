// Handed-over rows and submitted URLs leave every file of the database within seconds, and never reach the logs.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { databaseFiles, markersIn } from "../support/database-files.js";
import { dialects, dialectTitle, freshDatabase, type FreshDatabase } from "../support/databases.js";
import { type FakeModel, rowsReply, startFakeModel } from "../support/fake-model.js";
import { newVideoId, waitFor } from "../support/jobs-api.js";
import { resetGraceMs } from "../../src/jobs/handover-delivery.js";
import { webVtt } from "../support/pipeline.js";
import { killAllChildren, type ServerProcess, startServerProcess } from "../support/processes.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

/**
 * The contract's promise (§8): gone from the files within 10 seconds of the handover, which is recorded
 * `resetGraceMs` after the answer carrying the rows was written (src/jobs/handover-delivery.ts).
 */
const erasedWithinMs = 10_000 + resetGraceMs;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `erasure after the handover on ${dialectTitle(dialect)}`,
    () => {
      let database: FreshDatabase | undefined;
      let model: FakeModel | undefined;
      let captionsDir: string | undefined;
      let server: ServerProcess | undefined;

      afterEach(async () => {
        await killAllChildren();
        await model?.close();
        await database?.drop();
        if (captionsDir) rmSync(captionsDir, { recursive: true, force: true });
      });

      it("deletes the rows and the submitted URL from every file of the database, and never logs them at trace", async (context) => {
        database = await freshDatabase(dialect.name);
        const readable = await databaseFiles(database);
        if ("unreadable" in readable) {
          if (process.env.VIDROWS_REQUIRE_POSTGRES === "1")
            throw new Error(`Cannot read ${readable.unreadable}`);
          context.skip(`the database's files cannot be read here (${readable.unreadable})`);
          return;
        }
        // Markers no other data can contain by chance: one in a row the model finds, one in the submitted URL.
        const rowMarker = `rowmarker${randomBytes(8).toString("hex")}`;
        const urlMarker = `urlmarker${randomBytes(8).toString("hex")}`;
        const markers: (string | Buffer)[] = [rowMarker, urlMarker];
        model = await startFakeModel({ respond: () => rowsReply([{ product: rowMarker, price: 7 }]) });
        captionsDir = mkdtempSync(join(tmpdir(), "vidrows-captions-"));
        const videoId = newVideoId();
        writeFileSync(
          join(captionsDir, `${videoId}.vtt`),
          webVtt(30, ["We sell the widget for five dollars."]),
        );
        server = await startServerProcess({
          databaseUrl: database.url,
          withWorker: true,
          env: {
            LOG_LEVEL: "trace",
            VIDROWS_CAPTIONS: `dir:${captionsDir}`,
            VIDROWS_LLM_BASE_URL: model.url,
            VIDROWS_LLM_API_KEY: "x",
            VIDROWS_LLM_MODEL: "fake-model",
          },
        });
        const running = server;
        const key = running.printedKey();
        expect(key).not.toBeNull();
        const call = async (method: string, path: string, body?: unknown) => {
          const response = await fetch(`${running.url}${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: response.status, body: (await response.json()) as any };
        };

        const submitted = await call("POST", "/v1", {
          videos: [`https://youtu.be/${videoId}?si=${urlMarker}`],
          schema: { columns: ["product", "price"] },
        });
        expect(submitted.status).toBe(202);
        const jobId: string = submitted.body.job_id;
        // Settled, as the list says (a read would take the rows).
        await waitFor("the job to settle", async () => {
          const list = await call("GET", `/v1?search=${jobId}`);
          return list.body.data[0]?.status === "processing" ? undefined : list.body.data[0];
        });

        // The scan reads what the files hold: the video's id, which stays, is found in them. On SQLite
        // the row and the URL are there in plain until the handover. PostgreSQL never stores them
        // unsealed; there the job's data key, which opens them, is in the files until the handover.
        const before = markersIn((await filesOf(database)).files, [videoId, ...markers]);
        expect(before.some((found) => found.endsWith(videoId))).toBe(true);
        if (dialect.name === "sqlite") {
          expect(before.some((found) => found.endsWith(rowMarker))).toBe(true);
        } else {
          expect(before.filter((found) => !found.endsWith(videoId))).toEqual([]);
          const dataKey = await dataKeyOf(database, jobId);
          expect(markersIn((await filesOf(database)).files, [dataKey])).not.toEqual([]);
          markers.push(dataKey);
        }

        const read = await call("GET", `/v1/${jobId}`);
        expect(read.body.results[0].rows).toEqual({
          results: [{ product: rowMarker, price: 7 }],
          sources: [
            {
              start_seconds: 0,
              end_seconds: 30,
              url: `https://www.youtube.com/watch?v=${videoId}&t=0s`,
              quote: "We sell the widget for five dollars.",
              unverified: ["product", "price"],
            },
          ],
        });

        const left = await waitFor(
          "the rows and the URL (and on PostgreSQL the data key) to leave the database's files",
          async () => {
            const found = markersIn((await filesOf(database as FreshDatabase)).files, markers);
            return found.length === 0 ? found : undefined;
          },
          erasedWithinMs,
        );
        expect(left).toEqual([]);
        // The files still hold the rest of the job.
        expect(markersIn((await filesOf(database)).files, [videoId])).not.toEqual([]);

        await running.stop();
        expect(markersIn((await filesOf(database)).files, markers)).toEqual([]);
        // The logs went below info (each request, and the erasure, at debug), and neither marker is in them.
        const logs = running.stdout() + running.stderr();
        expect(logs).toContain(`"msg":"erased handed-over data from the database's files"`);
        for (const marker of [rowMarker, urlMarker]) expect(logs).not.toContain(marker);
      });
    },
  );
}

/** The job's data key as stored (PostgreSQL), read before the handover deletes it. */
async function dataKeyOf(database: FreshDatabase, jobId: string): Promise<Buffer> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const found = await client.query("select data_key from job_keys where job_id = $1", [jobId]);
    expect(found.rows).toHaveLength(1);
    return found.rows[0].data_key as Buffer;
  } finally {
    await client.end();
  }
}

async function filesOf(database: FreshDatabase): Promise<{ files: string[] }> {
  const files = await databaseFiles(database);
  if ("unreadable" in files) throw new Error(`Cannot read ${files.unreadable}`);
  return files;
}
