// The database failing in the middle of a video's work (a kept transcript's look-up, the plan's bound) is
// the database's fault, not the video's: the video is not failed for it, but waits for the database and
// goes on, and settles done, charged once. On both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { newVideoId } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { KeptTranscripts } from "../../src/pipeline/kept-transcripts.js";
import type { ClaimedVideo } from "../../src/pipeline/claims.js";
import type { Store } from "../../src/store/database.js";

/** Kept transcripts whose first look-up meets a dropped connection; it keeps nothing (retention 0). */
class FirstLookUpUnreachable extends KeptTranscripts {
  readonly lookUps: string[] = [];

  constructor() {
    // With a retention of 0 the store is never asked: `find` below is the only look-up, and it is ours.
    super(undefined as unknown as Store, 0);
  }

  override async find(video: ClaimedVideo) {
    this.lookUps.push(video.rowId);
    if (this.lookUps.length === 1) {
      throw Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
    }
    return undefined;
  }
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `the database unavailable mid-video on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      const kept = new FirstLookUpUnreachable();
      beforeAll(async () => {
        server = await startPipelineServer(dialect.name, {
          config: {
            worker: { videoLeaseSeconds: 2, videosInFlight: 2, modelConcurrency: 2, shutdownGraceSeconds: 5 },
          },
          app: { worker: { keptTranscripts: kept } },
        });
      });
      afterAll(async () => {
        await server?.close();
      });

      it("waits for the database instead of failing the video, which settles done, charged once", async () => {
        const { key } = await server.workspace();
        const videoId = newVideoId();
        server.addCaptions(videoId, 60);
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos: [videoId], schema: { columns: ["product", "price"] } },
        });
        expect(submitted.status, submitted.text).toBe(202);
        const settled = await server.waitForSettled(key, submitted.body.job_id, 60_000);
        expect(settled).toMatchObject({ status: "done", credits_charged: 1 });
        const videos = await server.call("GET", `/v1/${submitted.body.job_id}/videos`, { key });
        expect(videos.body.data[0]).toMatchObject({ status: "done", credits_charged: 1 });
        // Looked up twice, by the same claim: the look-up the outage failed, and the one after the wait.
        expect(kept.lookUps).toHaveLength(2);
        expect(new Set(kept.lookUps).size).toBe(1);
        const claims = await server.app.store.db
          .selectFrom("videos")
          .select("claims")
          .where("id", "=", kept.lookUps[0]!)
          .executeTakeFirstOrThrow();
        expect(claims.claims).toBe(1);
      });
    },
  );
}
