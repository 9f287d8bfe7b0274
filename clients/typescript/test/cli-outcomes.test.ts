// What the client CLI's jobs commands say and exit with once a job has settled, against the real server
// (SQLite and PostgreSQL): a failed job exits 5 naming each video's code and the command to run next, a
// partial one exits 0 saying which failed; `jobs rows` writes the schema's header when there are no rows,
// writes nothing at all when an earlier read took them, and says what `--out` wrote.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { newVideoId, useJobsApi } from "../../../test/support/jobs-api.js";
import { runCli } from "./cli-support.js";

const header = "video_id,product,price\r\n";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vidrows-client outcomes on ${dialectTitle(dialect)}`, () => {
    const { server, videoWithCaptions } = useJobsApi(dialect.name);
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(join(tmpdir(), "vidrows-cli-outcomes-"));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it("exits 5 from --wait when every video failed, naming each one's code and what to run next", async () => {
      const { key } = await server().workspace();
      const cli = (argv: string[]) => runCli(server().url, key, argv);
      const [first, second] = [newVideoId(), newVideoId()]; // no captions: both fail with no_captions
      const submit = ["jobs", "submit", first, second, "--columns", "product,price"];
      const waited = await cli([...submit, "--wait", "--interval", "20"]);
      expect(waited.code, waited.stderr).toBe(5);
      const settled = JSON.parse(waited.stdout);
      expect(settled).toMatchObject({ status: "failed", counts: { done: 0, failed: 2 }, results: [] });
      const jobId = settled.job_id as string;
      const lines = waited.stderr.split("\n");
      expect(lines[0]).toMatch(new RegExp(`^failed ${first}: no_captions: .+`));
      expect(lines[1]).toMatch(new RegExp(`^failed ${second}: no_captions: .+`));
      expect(lines[2]).toBe(
        `Job ${jobId} failed: all 2 videos failed (above), so it has no rows and cost nothing. ` +
          `\`vidrows-client jobs videos ${jobId}\` lists each video's state and code; a retryable code may ` +
          "succeed in a new job.",
      );

      const again = await cli(["jobs", "wait", jobId, "--interval", "20", "--json"]);
      expect(again.code).toBe(5);
      expect(again.stderr).toContain(`Job ${jobId} failed`);

      const videos = await cli(["jobs", "videos", jobId]);
      expect(videos.code, videos.stderr).toBe(0);
      expect(JSON.parse(videos.stdout).data.map((video: any) => video.error.code)).toEqual([
        "no_captions",
        "no_captions",
      ]);

      // The rows, as CSV: none, under the schema's header; the same on a second read (there was nothing to take).
      for (let read = 0; read < 2; read += 1) {
        const rows = await cli(["jobs", "rows", jobId, "--format", "csv"]);
        expect(rows.code).toBe(5);
        expect(rows.stdout).toBe(header);
        expect(rows.stderr).toMatch(new RegExp(`^failed ${first}: no_captions: .+\\n`));
        expect(rows.stderr).toContain(`Job ${jobId} failed: every one of its 2 videos failed (above)`);
      }
      const out = join(folder, "rows.csv");
      const written = await cli(["jobs", "rows", jobId, "--format", "csv", "--sources", "--out", out]);
      expect(written.code).toBe(5);
      expect(readFileSync(out, "utf8")).toBe(
        "video_id,product,price,source_start_seconds,source_url,source_quote\r\n",
      );
      expect(written.stderr).toContain(`Wrote 0 rows of 0 done videos to ${out} (csv).\n`);
    });

    it("exits 0 from --wait on a partial job, saying which video failed and how to take the others' rows", async () => {
      const { key } = await server().workspace();
      const good = videoWithCaptions();
      const silent = newVideoId();
      const run = await runCli(server().url, key, [
        "jobs",
        "submit",
        good,
        silent,
        "--columns",
        "product,price",
        "--wait",
        "--interval",
        "20",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const jobId = JSON.parse(run.stdout).job_id as string;
      expect(JSON.parse(run.stdout)).toMatchObject({ status: "partial", counts: { done: 1, failed: 1 } });
      expect(run.stderr).toMatch(new RegExp(`^failed ${silent}: no_captions: .+\\n`));
      expect(run.stderr).toContain(
        `1 of 2 videos failed (above); \`vidrows-client jobs videos ${jobId}\` lists each video's state and ` +
          `code. Take the rows of the 1 done with \`vidrows-client jobs rows ${jobId}\`.\n`,
      );
    });

    it("writes nothing to stdout, in any format, when an earlier read took the rows; --out says what it wrote", async () => {
      const { key } = await server().workspace();
      const cli = (argv: string[]) => runCli(server().url, key, argv);
      const video = videoWithCaptions();
      const submitted = await cli(["jobs", "submit", video, "--columns", "product,price", "--wait"]);
      const jobId = JSON.parse(submitted.stdout).job_id as string;
      const out = join(folder, "rows.jsonl");
      const taken = await cli(["jobs", "rows", jobId, "--format", "jsonl", "--out", out]);
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stdout).toBe("");
      expect(taken.stderr).toBe(`Wrote 1 row of 1 done video to ${out} (jsonl).\n`);
      expect(readFileSync(out, "utf8")).toBe(
        `${JSON.stringify({ video_id: video, product: "widget", price: 5 })}\n`,
      );

      for (const format of ["csv", "jsonl", "json"]) {
        const late = await cli(["jobs", "rows", jobId, "--format", format]);
        expect(late.code, format).toBe(4);
        expect(late.stdout, format).toBe("");
        expect(late.stderr, format).toBe(
          `The rows of ${jobId} were taken by an earlier read; the server keeps none. Nothing was written.\n`,
        );
      }
      expect(readdirSync(folder)).toEqual(["rows.jsonl"]);
    });
  });
}
