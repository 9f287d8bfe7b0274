// `jobs rows`: takes a settled job's rows (once: the server deletes them) and writes them as JSON, JSONL or CSV.
import type { JobRead, SettledJob } from "../api-types.js";
import { sleep } from "../retry-policy.js";
import { rowsState } from "../rows-state.js";
import { type Command, type CommandContext, stringOption } from "./command.js";
import { type CsvRow, type RowTable, rowsToCsv } from "./csv.js";
import { exitCodes, UsageError } from "./exit-codes.js";
import { reportFailedVideos } from "./failed-videos.js";
import { openPendingFile, type PendingFile } from "./pending-file.js";
import { withSourceColumns } from "./source-columns.js";

const formats = ["json", "jsonl", "csv"] as const;
type Format = (typeof formats)[number];

function rowTable(job: SettledJob, withSources: boolean): RowTable {
  const rows: CsvRow[] = [];
  for (const video of job.results) {
    if (video.status !== "done" || video.rows === null) continue;
    const { results, sources } = video.rows;
    results.forEach((cells, i) => rows.push({ videoId: video.video_id, cells, source: sources[i] }));
  }
  // A server from before reads gave `columns` has the rows' own keys, the same when there are rows.
  const columns = job.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row.cells)))];
  const table = { columns, rows };
  return withSources ? withSourceColumns(table) : table;
}

function render(job: SettledJob, format: Format, table: RowTable): string {
  if (format === "json") return JSON.stringify(job, null, 2) + "\n";
  if (format === "csv") return rowsToCsv(table);
  return table.rows.map((row) => JSON.stringify({ video_id: row.videoId, ...row.cells }) + "\n").join("");
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;

/** How long `jobs rows` reads again while another read holds the rows, and how often. */
const holdWaitMs = 3000;
const holdPollMs = 250;

/**
 * Takes the rows, reading again for a few seconds while another read's answer holds them: a claim is
 * settled about a second after its answer, so a command run just after another (or after a reset)
 * then says what became of them, and a command that still finds them held says so.
 */
async function takeThroughHolds(context: CommandContext, jobId: string): Promise<JobRead> {
  const client = context.client();
  const deadline = Date.now() + holdWaitMs;
  for (;;) {
    const read = await client.jobs.takeRows(jobId);
    if (rowsState(read) !== "held" || Date.now() + holdPollMs > deadline) return read;
    await sleep(holdPollMs);
  }
}

export const rowsCommand: Command = {
  name: "jobs rows",
  usage: "<job_id> [--format json|jsonl|csv] [--sources] [--out FILE]",
  summary:
    "Take a settled job's rows and write them. The server hands rows over once and then deletes them: keep the output.",
  options: { format: { type: "string" }, out: { type: "string" }, sources: { type: "boolean" } },
  optionHelp: [
    "--format F        json (the whole job, default), jsonl (one row a line, with video_id) or csv",
    "                  (video_id, then the schema's columns)",
    "--sources         jsonl and csv: add each row's source_start_seconds, source_url and source_quote after",
    "                  its columns (each name led by as many _ as it takes to differ from every column)",
    "--out FILE        write there instead of stdout: the file appears only when the rows were taken and written whole",
    "                  (its folder is checked before the rows are taken, so a bad path loses nothing)",
  ],
  examples: ["jobs rows job_01... --format csv --out rows.csv", "jobs rows job_01... --format jsonl | jq ."],
  positionals: { min: 1, max: 1 },
  async run(context) {
    const format = (stringOption(context, "format") ?? "json") as Format;
    if (!formats.includes(format))
      throw new UsageError(`--format must be json, jsonl or csv; got "${format}".`);
    const jobId = context.positionals[0] as string;
    const outPath = stringOption(context, "out");
    let out: PendingFile | undefined;
    try {
      out = outPath === undefined ? undefined : await openPendingFile(outPath);
    } catch (error) {
      throw new UsageError(`Cannot write --out ${outPath}: ${(error as Error).message}`);
    }
    try {
      const read = await takeThroughHolds(context, jobId);
      const state = rowsState(read);
      if (read.status === "processing") {
        context.io.stderr.write(
          `Job ${jobId} is still ${read.status}: nothing was taken. Run \`${context.program} jobs wait ${jobId}\` first.\n`,
        );
        return exitCodes.nothingTaken;
      }
      // An output holding only what an earlier read left (no rows) would pass for the rows: write none,
      // not even a header, so that `> rows.csv` leaves an empty file rather than one that looks whole.
      if (state === "held" || state === "taken") {
        reportFailedVideos(context, read.results);
        const unwritten = out ? ` Nothing was written to ${outPath}.` : " Nothing was written.";
        if (state === "held") {
          context.io.stderr.write(
            `The rows of ${jobId} are being handed to another read right now; they come back if that read does not get them, so try again in a moment.${unwritten}\n`,
          );
          return exitCodes.rowsHeld;
        }
        context.io.stderr.write(
          `The rows of ${jobId} were taken by an earlier read; the server keeps none.${unwritten}\n`,
        );
        return exitCodes.nothingTaken;
      }
      const table = rowTable(read, context.values.sources === true);
      const text = render(read, format, table);
      if (!out) context.io.stdout.write(text);
      else {
        await out.write(text);
        await out.commit();
        const videos = read.results.filter((video) => video.status === "done").length;
        context.io.stderr.write(
          `Wrote ${plural(table.rows.length, "row")} of ${plural(videos, "done video")} to ${outPath} (${format}).\n`,
        );
      }
      reportFailedVideos(context, read.results);
      if (read.status === "failed") {
        context.io.stderr.write(
          `Job ${jobId} failed: every one of its ${plural(read.videos, "video")} failed (above), so it has no rows.\n`,
        );
        return exitCodes.jobFailed;
      }
      return exitCodes.ok;
    } finally {
      await out?.discard();
    }
  },
};
