// Transcripts kept for reuse, per workspace: a second job over the same video reads nothing from the
// platform and is priced as captions; another workspace, or `"reuse": false`, reads afresh; once the
// retention is past the kept transcript is gone from every file of the database. On both databases.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFiles, markersIn } from "../support/database-files.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelRequest, messageOf } from "../support/fake-model.js";
import { newVideoId, waitFor } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { printed, runCli } from "../../clients/typescript/test/cli-support.js";
import { Vidrows } from "../../clients/typescript/src/index.js";
import { workerKeepingTranscripts } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`kept transcripts on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, {
        config: {
          worker: workerKeepingTranscripts,
        },
        app: { worker: { transcriptSweepMs: 100 } },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    /** Captions for a new video whose words carry `marker`, so a prompt shows which read it came from. */
    function captionsSaying(videoId: string, marker: string): void {
      server.addCaptions(videoId, 90, [`We sell the widget for five dollars, ${marker}.`, "That is all."]);
    }

    /** Runs a job over `videoId` and answers its settled read, its per-video list and the prompts it sent. */
    async function runJob(key: string, videoId: string, extra: Record<string, unknown> = {}) {
      const before = server.model.requests.length;
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: [videoId], schema: { columns: ["product", "price"] }, ...extra },
      });
      expect(submitted.status, submitted.text).toBe(202);
      const settled = await server.waitForSettled(key, submitted.body.job_id);
      const videos = await server.call("GET", `/v1/${submitted.body.job_id}/videos`, { key });
      expect(videos.status).toBe(200);
      const prompts = server.model.requests
        .slice(before)
        .map((request) => messageOf(request as FakeModelRequest, "user"));
      return { settled, item: videos.body.data[0], prompts };
    }

    it("reuses a workspace's transcript in its next job: no platform read, priced as captions", async () => {
      const { key } = await server.workspace();
      const videoId = newVideoId();
      captionsSaying(videoId, "first read");
      const first = await runJob(key, videoId);
      expect(first.item).toMatchObject({ status: "done", transcript: "captions" });
      // The platform now says something else: a job that read it again would send those words.
      captionsSaying(videoId, "second read");
      const second = await runJob(key, videoId);
      expect(second.item).toMatchObject({ status: "done", transcript: "reused" });
      expect(second.prompts.join("\n")).toContain("first read");
      expect(second.prompts.join("\n")).not.toContain("second read");
      // Priced as captions: a credit per started minute (90 s: 2), as the first job was.
      expect(second.settled.credits_charged).toBe(first.settled.credits_charged);
      expect(second.item.credits_charged).toBe(2);
    });

    it("never shares a transcript with another workspace, which reads the video itself", async () => {
      const videoId = newVideoId();
      captionsSaying(videoId, "owner read");
      await runJob((await server.workspace()).key, videoId);
      captionsSaying(videoId, "other read");
      const other = await runJob((await server.workspace()).key, videoId);
      expect(other.item.transcript).toBe("captions");
      expect(other.prompts.join("\n")).toContain("other read");
    });

    it("reads afresh for a job that says reuse: false, and for another language", async () => {
      const { key } = await server.workspace();
      const videoId = newVideoId();
      captionsSaying(videoId, "old words");
      await runJob(key, videoId);
      captionsSaying(videoId, "new words");
      const fresh = await runJob(key, videoId, { reuse: false });
      expect(fresh.item.transcript).toBe("captions");
      expect(fresh.prompts.join("\n")).toContain("new words");
      // The fresh read is kept too: the next job reuses it.
      captionsSaying(videoId, "newest words");
      const next = await runJob(key, videoId);
      expect(next.item.transcript).toBe("reused");
      expect(next.prompts.join("\n")).toContain("new words");
      const otherLanguage = await runJob(key, videoId, { language: "de" });
      expect(otherLanguage.item.transcript).toBe("captions");
      expect(otherLanguage.prompts.join("\n")).toContain("newest words");
    });

    it("reads afresh through the client: reuse: false in the SDK, --no-reuse in the CLI", async () => {
      const { key } = await server.workspace();
      const videoId = newVideoId();
      captionsSaying(videoId, "sdk first");
      await runJob(key, videoId);
      captionsSaying(videoId, "sdk second");
      const vr = new Vidrows({ apiKey: key, baseUrl: server.url });
      const viaSdk = await vr.jobs.submit({
        videos: [videoId],
        schema: { columns: ["product"] },
        reuse: false,
      });
      await server.waitForSettled(key, viaSdk.job_id);
      const sdkVideos = await server.call("GET", `/v1/${viaSdk.job_id}/videos`, { key });
      expect(sdkVideos.body.data[0].transcript).toBe("captions");
      captionsSaying(videoId, "cli third");
      const run = await runCli(server.url, key, [
        "jobs",
        "submit",
        videoId,
        "--columns",
        "product",
        "--no-reuse",
      ]);
      const created = printed(run);
      await server.waitForSettled(key, created.job_id);
      const cliVideos = await server.call("GET", `/v1/${created.job_id}/videos`, { key });
      expect(cliVideos.body.data[0].transcript).toBe("captions");
      expect(server.model.requests.map((r) => messageOf(r as FakeModelRequest, "user")).join("\n")).toContain(
        "cli third",
      );
    });

    it("refuses a reuse that is not true or false, naming the field", async () => {
      const { key } = await server.workspace();
      const answer = await server.call("POST", "/v1", {
        key,
        body: { videos: [newVideoId()], schema: { columns: ["product"] }, reuse: "no" },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe("reuse");
    });

    it("deletes a transcript past its retention from every file of the database", async (context) => {
      const readable = await databaseFiles(server.database);
      if ("unreadable" in readable) {
        context.skip(`the database's files cannot be read here (${readable.unreadable})`);
        return;
      }
      const { key } = await server.workspace();
      const videoId = newVideoId();
      const marker = `keptmarker${randomBytes(8).toString("hex")}`;
      captionsSaying(videoId, marker);
      await runJob(key, videoId);
      const db = server.app.store.db;
      const kept = await db.selectFrom("kept_transcripts").select(["id", "transcript"]).execute();
      expect(kept.length).toBeGreaterThan(0);
      // Sealed: the stored value does not show the words.
      for (const row of kept) expect(row.transcript).not.toContain(marker);
      const keys = await db.selectFrom("transcript_keys").select("data_key").execute();
      expect(keys.length).toBe(kept.length);
      const keyBytes = keys.map((row) => row.data_key);
      // Before its time passes, its key is in the files (it is what opens the sealed transcript).
      const before = await databaseFiles(server.database);
      expect("files" in before && markersIn(before.files, keyBytes).length).toBeGreaterThan(0);
      // Its time passes.
      await db.updateTable("kept_transcripts").set({ expires_at: 1 }).execute();
      await waitFor("the expired transcripts to be deleted", async () => {
        const left = await db.selectFrom("kept_transcripts").select("id").executeTakeFirst();
        return left === undefined ? true : undefined;
      });
      const markers = [marker, ...keyBytes];
      await waitFor(
        "the deleted transcript and its key to leave the database's files",
        async () => {
          const files = await databaseFiles(server.database);
          return "files" in files && markersIn(files.files, markers).length === 0 ? true : undefined;
        },
        15_000,
      );
      // A new job reads the video afresh.
      captionsSaying(videoId, "after expiry");
      const after = await runJob(key, videoId);
      expect(after.item.transcript).toBe("captions");
    });
  });
}
