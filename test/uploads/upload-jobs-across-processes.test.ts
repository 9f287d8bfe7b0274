// PostgreSQL with the API and the worker as separate machines would run them: a real `vidrows serve
// --no-worker` takes the uploads, a real `vidrows worker` that shares nothing with it but the database
// turns them into rows (a Matroska file's subtitle stream as its captions, a tone through a fake
// transcription endpoint), and once the videos settle their bytes, their keys and their words are gone
// from the database and its files. Neither process is given an upload store: on PostgreSQL the default is
// the database itself, which is what lets the worker read what the API took.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { resetGraceMs } from "../../src/jobs/handover-delivery.js";
import { databaseFiles, markersIn } from "../support/database-files.js";
import { dialects, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { type FakeModel, rowOnLineWith, startFakeModel } from "../support/fake-model.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
} from "../support/fake-transcription.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { waitFor } from "../support/jobs-api.js";
import { subtitledFile, toneFile } from "../support/media-files.js";
import { killAllChildren, startServerProcess, startWorkerProcess } from "../support/processes.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const postgres = dialects.find((d) => d.name === "postgres")!;

describe.skipIf(postgres.skipReason !== null || ffmpegMissing() !== null)(
  "uploads turned into rows by a worker process apart from the API process, on PostgreSQL",
  () => {
    let database: FreshDatabase | undefined;
    let folder: string | undefined;
    let model: FakeModel | undefined;
    let service: FakeTranscription | undefined;

    afterEach(async () => {
      await killAllChildren();
      await model?.close();
      await service?.close();
      await database?.drop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("takes a subtitled file and a tone in one process, makes rows of them in another, and erases both", async () => {
      database = await freshDatabase("postgres");
      folder = mkdtempSync(join(tmpdir(), "vidrows-upload-jobs-"));
      // Words only the subtitles hold, and a title only the tone's tags hold: found in the database's
      // files afterwards, they would mean an upload's words or bytes were kept.
      const spoken = `subtitlemarker${randomBytes(6).toString("hex")}`;
      const tagged = `tonemarker${randomBytes(6).toString("hex")}`;
      const subtitled = readFileSync(
        subtitledFile(folder, 8, ["Welcome to the call.", `The blue kettle costs thirty dollars ${spoken}.`]),
      );
      const tone = readFileSync(toneFile(folder, 70, "tone.m4a", tagged));

      model = await startFakeModel({ respond: rowOnLineWith("kettle", { product: "kettle", price: 30 }) });
      service = await startFakeTranscription(() =>
        verboseReply([[0, 60, "The red kettle costs thirty dollars."]]),
      );
      // Both processes are told of the model and the transcription endpoint (the API refuses `transcribe`
      // on an upload without subtitles when it has none); neither of a folder for uploads.
      const env = {
        VIDROWS_LLM_BASE_URL: model.url,
        VIDROWS_LLM_API_KEY: "test",
        VIDROWS_LLM_MODEL: "fake-model",
        VIDROWS_TRANSCRIBE_BASE_URL: service.url,
        VIDROWS_TRANSCRIBE_API_KEY: "stt-key",
        VIDROWS_TRANSCRIBE_MODEL: "fake-whisper",
      };
      const api = await startServerProcess({ databaseUrl: database.url, env });
      const key = api.printedKey()!;
      expect(key).not.toBeNull();
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${api.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as any };
      };
      const upload = async (bytes: Buffer, type: string) => {
        const response = await fetch(`${api.url}/v1/uploads`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": type },
          body: bytes,
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { upload_id: string }).upload_id;
      };
      const subtitledId = await upload(subtitled, "video/x-matroska");
      const toneId = await upload(tone, "audio/mp4");

      // The bytes are in the database, sealed: the chunks and the keys that open them.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const ids = [subtitledId, toneId];
        const chunks = async () =>
          Number(
            (await client.query("select count(*) as n from upload_chunks where upload_id = any($1)", [ids]))
              .rows[0].n,
          );
        expect(await chunks()).toBeGreaterThanOrEqual(2);
        const dataKeys = (
          await client.query("select data_key from upload_blobs where upload_id = any($1)", [ids])
        ).rows.map((row) => row.data_key as Buffer);
        expect(dataKeys).toHaveLength(2);

        const submitted = await call("POST", "/v1", {
          videos: [`upload:${subtitledId}`, `upload:${toneId}`],
          schema: { columns: ["product", "price"] },
        });
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
        const jobId = submitted.body.job_id as string;

        // No worker yet: the API process makes no rows of its own.
        expect((await call("GET", `/v1/${jobId}`)).body.status).toBe("processing");
        await startWorkerProcess({ databaseUrl: database.url, env });

        const job = await waitFor(
          "the job to settle",
          async () => {
            const read = await call("GET", `/v1/${jobId}`);
            return read.body.status === "processing" ? undefined : read.body;
          },
          workWaitMs,
        );
        const byId = new Map((job.results as any[]).map((video) => [video.video_id, video]));
        const fromSubtitles = byId.get(`upload:${subtitledId}`);
        const fromSpeech = byId.get(`upload:${toneId}`);
        expect(fromSubtitles.status, JSON.stringify(fromSubtitles)).toBe("done");
        expect(fromSubtitles.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(fromSubtitles.rows.sources[0].quote).toContain("The blue kettle costs thirty dollars");
        expect(fromSpeech.status, JSON.stringify(fromSpeech)).toBe("done");
        expect(fromSpeech.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(fromSpeech.rows.sources[0].quote).toContain("The red kettle costs thirty dollars");
        // Only the tone went to speech-to-text, as its audio re-encoded small.
        expect(service.uploads).toHaveLength(1);
        expect(service.uploads[0]!.fileBytes).toBeLessThan(tone.byteLength);

        // Settled: no chunk, no key, no upload row left, and nothing of them in the database's files.
        await waitFor("the uploads' chunks to go", async () => ((await chunks()) === 0 ? true : undefined));
        expect(
          (await client.query("select count(*) as n from upload_blobs where upload_id = any($1)", [ids]))
            .rows[0].n,
        ).toBe("0");
        expect(
          (await client.query("select count(*) as n from uploads where id = any($1)", [ids])).rows[0].n,
        ).toBe("0");
        const files = await databaseFiles(database);
        if ("unreadable" in files) {
          if (process.env.VIDROWS_REQUIRE_POSTGRES === "1") throw new Error(files.unreadable);
          return;
        }
        const left = await waitFor(
          "the uploads' keys and words to leave the database's files",
          async () => {
            const now = await databaseFiles(database!);
            if ("unreadable" in now) throw new Error(now.unreadable);
            const found = markersIn(now.files, [...dataKeys, spoken, tagged]);
            return found.length === 0 ? found : undefined;
          },
          workWaitMs + resetGraceMs,
        );
        expect(left).toEqual([]);
      } finally {
        await client.end();
      }
    });
  },
);
