// The client CLI's jobs commands against the real server (SQLite and PostgreSQL): submit and wait, the live
// progress line, Ctrl-C, and taking rows once as JSON, JSONL or CSV (commas, quotes and newlines in values;
// no cell a live spreadsheet formula, plain numbers left numbers).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { hold, newVideoId, useJobsApi } from "../../../test/support/jobs-api.js";
import { rowsReply } from "../../../test/support/fake-model.js";
import { startPipelineServer, type PipelineServer } from "../../../test/support/pipeline.js";
import { printed, runCli } from "./cli-support.js";

const awkward = { name: 'Widget, "deluxe"\nedition', price: 5, note: null };

/** A cell starting with each character that opens a formula, beside plain numbers (negative ones too). */
const formulaRows = [
  { name: "=1+2", price: -12, note: "+SUM(A1)" },
  { name: "-2+3", price: "-3.5", note: "@cmd" },
  { name: "\t=1", price: "1e5", note: "\r=2" },
];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vidrows-client jobs on ${dialectTitle(dialect)}`, () => {
    const { server, videoWithCaptions } = useJobsApi(dialect.name);
    let folder: string;
    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), "vidrows-cli-"));
    });
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    const cli = (key: string, argv: string[], options = {}) => runCli(server().url, key, argv, options);

    it("submits with --wait off a terminal: only the final JSON, and the rows are still there", async () => {
      const { key } = await server().workspace();
      const video = videoWithCaptions();
      const run = await cli(key, [
        "jobs",
        "submit",
        video,
        "--columns",
        "product,price",
        "--wait",
        "--interval",
        "20",
      ]);
      const settled = printed(run);
      expect(settled).toMatchObject({ status: "done", counts: { done: 1 }, videos: 1 });
      expect(run.stderr).toBe("");
      expect(printed(await cli(key, ["jobs", "progress", settled.job_id])).status).toBe("done");
      const list = printed(await cli(key, ["jobs", "list", "--status", "succeeded", "--limit", "5"]));
      expect(list.data.map((j: any) => j.job_id)).toEqual([settled.job_id]);

      const rows = await cli(key, ["jobs", "rows", settled.job_id, "--format", "jsonl"]);
      expect(rows.code).toBe(0);
      expect(rows.stdout).toBe(JSON.stringify({ video_id: video, product: "widget", price: 5 }) + "\n");
      const again = await cli(key, ["jobs", "rows", settled.job_id]);
      expect(again.code).toBe(4);
      expect(again.stderr).toContain("taken by an earlier read");
    });

    it("shows a live progress line on a terminal, and Ctrl-C stops only the wait", async () => {
      const { key } = await server().workspace();
      const held = hold();
      const submitted = printed(
        await cli(key, ["jobs", "submit", videoWithCaptions(held.marker), "--columns", "product,price"]),
      );
      const ctrlC = new AbortController();
      const stopped = await cli(key, ["jobs", "wait", submitted.job_id, "--interval", "20"], {
        tty: true,
        interrupt: ctrlC.signal,
        onStderr: (text: string) => {
          if (text.includes("queued")) ctrlC.abort();
        },
      });
      expect(stopped.code).toBe(130);
      // Each update returns to the line's start and clears it (CR, ESC [2K), then writes the counts.
      expect(stopped.stderr).toContain("\r\u001b[2Kjob_");
      expect(stopped.stderr).toMatch(/job_\w+: 0 done, 0 failed, \d processing, \d queued of 1 \(\d+s\)/);
      expect(stopped.stderr).toContain(`Job ${submitted.job_id} goes on`);
      expect(stopped.stdout).toBe("");

      const early = await cli(key, ["jobs", "rows", submitted.job_id]);
      expect(early.code).toBe(4);
      expect(early.stderr).toContain("nothing was taken");

      held.release();
      const waited = await cli(key, ["jobs", "wait", submitted.job_id, "--interval", "20"], { tty: true });
      expect(printed(waited).status).toBe("done");
      expect(waited.stderr).toMatch(/1 done, 0 failed, 0 processing, 0 queued of 1 \(\d+s\)\n$/);
      const out = join(folder, `${dialect.name}-rows.json`);
      expect((await cli(key, ["jobs", "rows", submitted.job_id, "--out", out])).code).toBe(0);
      expect(JSON.parse(readFileSync(out, "utf8")).results[0].rows.results).toEqual([
        { product: "held", price: 1 },
      ]);
    });

    it("refuses bad command lines with exit 2 before asking the server", async () => {
      const { key } = await server().workspace();
      const both = await cli(key, ["jobs", "submit", newVideoId(), "--columns", "a", "--schema-id", "sch_1"]);
      expect(both).toMatchObject({
        code: 2,
        stderr: "error: Give exactly one of --columns, --schema and --schema-id.\n",
      });
      expect((await cli(key, ["jobs", "submit", "--columns", "a"])).code).toBe(2);
      expect((await cli(key, ["jobs", "rows", "job_1", "--format", "xml"])).code).toBe(2);
      const badOut = await cli(key, ["jobs", "rows", "job_1", "--out", join(folder, "missing", "x.csv")]);
      expect(badOut.code).toBe(2);
      expect((await runCli(server().url, undefined, ["jobs", "list"])).stderr).toContain("VIDROWS_API_KEY");
      expect(printed(await cli(key, ["jobs", "list"])).pagination.total).toBe(0);
    });

    it("cancels a running job and prints its counts", async () => {
      const { key } = await server().workspace();
      const held = hold();
      const submitted = printed(
        await cli(key, ["jobs", "submit", videoWithCaptions(held.marker), "--columns", "a"]),
      );
      const run = await cli(key, ["jobs", "cancel", submitted.job_id]);
      expect(run.code, run.stderr).toBe(0);
      expect(printed(run)).toMatchObject({ job_id: submitted.job_id, status: "processing", results: null });
      held.release();
      const usage = await cli(key, ["jobs", "cancel"]);
      expect(usage.code).toBe(2);
    });

    it("prints the server's code and message with exit 1 (as JSON with --json)", async () => {
      const { key } = await server().workspace();
      const missing = await cli(key, ["jobs", "rows", "job_0000000000000000000000"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(
        /^error: job_not_found \(job_id\): No job job_0+ in this workspace\. \[req_\w+\]\n$/,
      );
      const bad = await cli(key, ["jobs", "submit", "nope", "--columns", "a", "--json"]);
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stderr).error).toMatchObject({
        code: "invalid_request",
        param: "videos[0]",
        status: 400,
      });
    });
  });

  describe.skipIf(dialect.skipReason !== null)(
    `vidrows-client jobs rows as CSV on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let folder: string;
      beforeAll(async () => {
        server = await startPipelineServer(dialect.name, { respond: () => rowsReply([awkward]) });
        folder = mkdtempSync(join(tmpdir(), "vidrows-cli-"));
      });
      afterAll(async () => {
        await server?.close();
        rmSync(folder, { recursive: true, force: true });
      });

      it("quotes commas, quotes and newlines, and reports failed videos on stderr", async () => {
        const { key } = await server.workspace();
        const good = newVideoId();
        const silent = newVideoId(); // no captions file: fails with no_captions
        server.addCaptions(good, 30);
        const schemaFile = join(folder, "schema.json");
        writeFileSync(schemaFile, JSON.stringify({ columns: ["name", "price", "note"] }));
        const submitted = await runCli(server.url, key, [
          "jobs",
          "submit",
          good,
          silent,
          "--schema",
          schemaFile,
        ]);
        const jobId = printed(submitted).job_id;
        const waited = printed(
          await runCli(server.url, key, ["jobs", "wait", jobId, "--interval", "20", "--json"]),
        );
        expect(waited.status).toBe("partial");
        const out = join(folder, "rows.csv");
        const rows = await runCli(server.url, key, ["jobs", "rows", jobId, "--format", "csv", "--out", out]);
        expect(rows.code).toBe(0);
        expect(readFileSync(out, "utf8")).toBe(
          `video_id,name,price,note\r\n${good},"Widget, ""deluxe""\nedition",5,\r\n`,
        );
        expect(rows.stderr).toMatch(
          new RegExp(
            `^Wrote 1 row of 1 done video to ${out} \\(csv\\)\\.\\nfailed ${silent}: no_captions: .+\\n$`,
          ),
        );
      });

      it("writes no cell that a spreadsheet would run as a formula, and keeps plain numbers", async () => {
        server.model.respondWith(() => rowsReply(formulaRows));
        try {
          const { key } = await server.workspace();
          const video = newVideoId();
          server.addCaptions(video, 30);
          const submitted = await runCli(server.url, key, [
            "jobs",
            "submit",
            video,
            "--columns",
            "name,price,note",
            "--wait",
            "--interval",
            "20",
          ]);
          const jobId = printed(submitted).job_id;
          const rows = await runCli(server.url, key, ["jobs", "rows", jobId, "--format", "csv"]);
          expect(rows.code).toBe(0);
          expect(rows.stdout).toBe(
            "video_id,name,price,note\r\n" +
              `${video},'=1+2,-12,'+SUM(A1)\r\n` +
              `${video},'-2+3,-3.5,'@cmd\r\n` +
              `${video},'\t=1,1e5,"'\r=2"\r\n`,
          );
        } finally {
          server.model.respondWith(() => rowsReply([awkward]));
        }
      });

      it("adds each row's source start, URL and quote as columns with --sources", async () => {
        const { key } = await server.workspace();
        const video = newVideoId();
        server.addCaptions(video, 30);
        const submitted = await runCli(server.url, key, ["jobs", "submit", video, "--columns", "name,price"]);
        const jobId = printed(submitted).job_id;
        await runCli(server.url, key, ["jobs", "wait", jobId, "--interval", "20", "--json"]);
        const rows = await runCli(server.url, key, ["jobs", "rows", jobId, "--format", "jsonl", "--sources"]);
        expect(rows.code).toBe(0);
        expect(JSON.parse(rows.stdout)).toEqual({
          video_id: video,
          name: awkward.name,
          price: awkward.price,
          source_start_seconds: 0,
          source_url: `https://www.youtube.com/watch?v=${video}&t=0s`,
          source_quote: "We sell the widget for five dollars. That is all.",
        });
      });
    },
  );
}
