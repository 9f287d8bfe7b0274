// VIDROWS_TRANSCRIPT_RETENTION_HOURS: 24 unless set, read as whole hours, refused out of range; at 0 a
// workspace's transcripts are not kept at all (nothing in `kept_transcripts`), so its next job over the same
// video reads the platform again. On both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelRequest, messageOf } from "../support/fake-model.js";
import { newVideoId } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { useWorkBudgets } from "../support/time-budgets.js";

// Jobs settle through a worker on a machine other suites share.
useWorkBudgets();

describe("the VIDROWS_TRANSCRIPT_RETENTION_HOURS setting", () => {
  it("is 24 hours unless set, takes 0 to keep none, and refuses what is not a whole number of hours in range", () => {
    expect(loadConfig({}).worker.transcriptRetentionHours).toBe(24);
    expect(loadConfig({ VIDROWS_TRANSCRIPT_RETENTION_HOURS: "0" }).worker.transcriptRetentionHours).toBe(0);
    expect(loadConfig({ VIDROWS_TRANSCRIPT_RETENTION_HOURS: "168" }).worker.transcriptRetentionHours).toBe(
      168,
    );
    for (const bad of ["-1", "1.5", "24h", "8761"]) {
      expect(() => loadConfig({ VIDROWS_TRANSCRIPT_RETENTION_HOURS: bad })).toThrow(
        `VIDROWS_TRANSCRIPT_RETENTION_HOURS must be an integer from 0 to 8760; got "${bad}".`,
      );
    }
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`a retention of 0 hours on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, {
        config: {
          worker: {
            videoLeaseSeconds: 120,
            videosInFlight: 8,
            modelConcurrency: 8,
            shutdownGraceSeconds: 10,
            transcriptRetentionHours: 0,
          },
        },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    /** Runs a job over `videoId` and answers its video's item and the prompts it sent. */
    async function runJob(key: string, videoId: string) {
      const before = server.model.requests.length;
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: [videoId], schema: { columns: ["product", "price"] } },
      });
      expect(submitted.status, submitted.text).toBe(202);
      await server.waitForSettled(key, submitted.body.job_id);
      const videos = await server.call("GET", `/v1/${submitted.body.job_id}/videos`, { key });
      const prompt = server.model.requests
        .slice(before)
        .map((request) => messageOf(request as FakeModelRequest, "user"))
        .join("\n");
      return { item: videos.body.data[0], prompt };
    }

    it("keeps no transcript, and the next job reads the video again", async () => {
      const { key } = await server.workspace();
      const videoId = newVideoId();
      server.addCaptions(videoId, 60, ["We sell the widget for five dollars, first read."]);
      const first = await runJob(key, videoId);
      expect(first.item).toMatchObject({ status: "done", transcript: "captions" });
      const kept = await server.app.store.db.selectFrom("kept_transcripts").select("id").execute();
      expect(kept).toEqual([]);
      server.addCaptions(videoId, 60, ["We sell the widget for five dollars, second read."]);
      const second = await runJob(key, videoId);
      expect(second.item).toMatchObject({ status: "done", transcript: "captions" });
      expect(second.prompt).toContain("second read");
    });
  });
}
