// A kept transcript of another platform's page, reused: the workspace's next job over the same Vimeo page runs
// no yt-dlp at all (no request to the platform), still settles under the id the first read gave
// (`vimeo:<id>`) with sources opening the page at the moment, and is priced as the first. `"reuse": false`
// runs yt-dlp again. A fake yt-dlp answers from recorded Vimeo output. On both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { promptLines, spannedRowsReply } from "../support/fake-model.js";
import {
  createFakePlatformYtDlp,
  type FakePlatformYtDlp,
  recordedPage,
} from "../support/fake-platform-ytdlp.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { useWorkBudgets } from "../support/time-budgets.js";
import { workerKeepingTranscripts } from "../support/test-server.js";

// Jobs settle through a worker that runs a fake yt-dlp, on a machine other suites share.
useWorkBudgets();

const vimeoUrl = "https://vimeo.com/76979871";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`a kept Vimeo transcript on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let ytDlp: FakePlatformYtDlp;

    beforeAll(async () => {
      ytDlp = createFakePlatformYtDlp();
      ytDlp.setPages({
        [vimeoUrl]: recordedPage("vimeo-76979871.info.json", { en: "vimeo-76979871.en.vtt" }),
      });
      server = await startPipelineServer(dialect.name, {
        // The row drawn from the line that names the crane, so that its source opens at its moment.
        respond: (request) => {
          const line = promptLines(request).find(({ text }) => /camera crane/i.test(text));
          return spannedRowsReply(
            line
              ? [
                  {
                    row: { product: "camera crane", price: 40 },
                    first_line: line.number,
                    last_line: line.number,
                  },
                ]
              : [],
          );
        },
        config: {
          ytDlpPath: ytDlp.path,
          otherPlatforms: "any",
          worker: workerKeepingTranscripts,
        },
        app: { worker: { retryBaseMs: 10 } },
      });
    });

    afterAll(async () => {
      await server?.close();
      ytDlp?.remove();
    });

    /** Runs a job over the Vimeo page: its settled read's video, its item, and how many yt-dlp runs it made. */
    async function runJob(key: string, extra: Record<string, unknown> = {}) {
      const runs = ytDlp.calls().length;
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: [vimeoUrl], schema: { columns: ["product", "price"] }, language: "en", ...extra },
      });
      expect(submitted.status, submitted.text).toBe(202);
      const settled = await server.waitForSettled(key, submitted.body.job_id);
      const videos = await server.call("GET", `/v1/${submitted.body.job_id}/videos`, { key });
      return { video: settled.results[0], item: videos.body.data[0], runs: ytDlp.calls().length - runs };
    }

    it("runs no yt-dlp for the workspace's next job, which still settles as vimeo:<id> with moment links", async () => {
      const { key } = await server.workspace();
      const first = await runJob(key);
      expect(first.item).toMatchObject({ status: "done", transcript: "captions" });
      expect(first.runs).toBeGreaterThan(0);

      const second = await runJob(key);
      expect(second.item).toMatchObject({ status: "done", transcript: "reused" });
      expect(second.runs).toBe(0);
      expect(second.video.video_id).toBe("vimeo:76979871");
      expect(second.video.rows.results).toEqual([{ product: "camera crane", price: 40 }]);
      // The kept cue times place the row as the first read did.
      expect(second.video.rows.sources[0].start_seconds).toBe(first.video.rows.sources[0].start_seconds);
      expect(second.video.rows.sources[0].url).toMatch(/^https:\/\/vimeo\.com\/76979871#t=\d+s$/);
      expect(second.video.usage.credits_charged).toBe(first.video.usage.credits_charged);

      const fresh = await runJob(key, { reuse: false });
      expect(fresh.item.transcript).toBe("captions");
      expect(fresh.runs).toBeGreaterThan(0);
    });
  });
}
