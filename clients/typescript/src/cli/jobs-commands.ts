// `jobs submit|list|progress|videos|wait|cancel`: submit videos, list jobs, follow one without taking its rows, cancel one.
import type { SubmitJobBody } from "../api-types.js";
import { type Command, type CommandContext, integerOption, stringOption } from "./command.js";
import { exitCodes, UsageError } from "./exit-codes.js";
import { uploadLocalFiles } from "./local-uploads.js";
import { schemaFromOptions, schemaOptionHelp, schemaOptions } from "./schema-input.js";
import { reportSettledJob, waitForJob } from "./waiting.js";

const intervalOption = { interval: { type: "string" } } as const;
const intervalHelp = "--interval MS      between polls while waiting (default 1000)";

function pollInterval(context: CommandContext): number {
  return (
    integerOption(context, "interval", 10, 3_600_000, { what: "a whole number of milliseconds" }) ?? 1000
  );
}

/**
 * `--schema-id` as given when it is an id. A name (the easy mistake: `schemas list` shows both) is refused
 * before anything is submitted, with the id of the saved schema of that name when there is one.
 */
async function schemaIdOption(context: CommandContext): Promise<string | undefined> {
  const given = stringOption(context, "schema-id");
  if (given === undefined || given.startsWith("sch_")) return given;
  const named = (await context.client().schemas.list()).data.find((schema) => schema.name === given);
  const hint = named
    ? `The saved schema named "${given}" is ${named.id}: --schema-id ${named.id}`
    : `\`${context.program} schemas list\` lists the saved schemas with their ids`;
  throw new UsageError(
    `--schema-id takes a saved schema's id, which starts with sch_; got "${given}". ${hint}.`,
  );
}

const transcribeModes = ["auto", "never", "always"] as const;
type TranscribeMode = (typeof transcribeModes)[number];
const maxListed = 1000;

/** The videos to submit: those named, then those `--from` lists (told on stderr: how many, and whether more). */
async function videosToSubmit(context: CommandContext): Promise<string[]> {
  const from = stringOption(context, "from");
  const limit = integerOption(context, "limit", 1, maxListed);
  if (from === undefined) {
    if (limit !== undefined) throw new UsageError("--limit goes with --from.");
    if (context.positionals.length === 0) {
      throw new UsageError("Give the videos to submit, or --from a playlist or channel URL.");
    }
    return [...context.positionals];
  }
  const listing = await context.client().videos.list({ from, ...(limit === undefined ? {} : { limit }) });
  if (listing.data.length === 0)
    throw new UsageError(`--from lists no videos at ${from}; nothing submitted.`);
  const more = listing.has_more ? " (the listing has more: raise --limit, up to 1000)" : "";
  context.io.stderr.write(`Listed ${listing.data.length} videos from ${from}${more}.\n`);
  return [...context.positionals, ...listing.data.map((video) => video.url)];
}

const submit: Command = {
  name: "jobs submit",
  usage:
    "(<video or file...> | --from URL [--limit N]) (--columns a,b,c | --schema FILE | --schema-id sch_... [--schema-version N]) [--language en] [--transcribe auto|never|always] [--no-reuse] [--wait]",
  summary:
    "Submit a job of videos (URLs or ids, or local audio and video files, uploaded first), or of a playlist's or channel's videos; prints the job, or with --wait its settled progress.",
  options: {
    ...schemaOptions,
    "schema-id": { type: "string" },
    "schema-version": { type: "string" },
    language: { type: "string" },
    transcribe: { type: "string" },
    "no-reuse": { type: "boolean" },
    from: { type: "string" },
    limit: { type: "string" },
    "idempotency-key": { type: "string" },
    wait: { type: "boolean" },
    ...intervalOption,
  },
  optionHelp: [
    ...schemaOptionHelp,
    "--schema-id ID    a saved schema's id, sch_... (`schemas list` shows them)",
    "--schema-version N  a version of the saved schema (default: its latest)",
    "--language TAG    preferred caption language, BCP-47 (default: the video's own)",
    "--transcribe MODE  auto (speech-to-text when a video has no captions; the default), never, or always",
    "--no-reuse        read every video afresh, not from a transcript this workspace kept from an earlier job",
    "--from URL        submit the videos of a playlist or channel (listed by the server; free)",
    "--limit N         with --from: the first N videos, 1 to 1000 (default 100)",
    "--idempotency-key K  resubmitting with the same key and videos makes no second job (default: a fresh key)",
    "--wait            wait until the job settles (the rows stay on the server: `jobs rows` takes them)",
    intervalHelp,
  ],
  examples: [
    "jobs submit dQw4w9WgXcQ https://youtu.be/aqz-KE-bpKQ --columns product,price --wait",
    "jobs submit ./call.mp4 ./lecture.mkv --columns topic,decision --wait",
    "jobs submit dQw4w9WgXcQ --schema-id sch_01... --schema-version 2 --language en",
    "jobs submit --from https://www.youtube.com/@channel/videos --limit 20 --columns product,price --transcribe never",
  ],
  positionals: { min: 0, max: Infinity },
  async run(context) {
    const schema = await schemaFromOptions(context);
    const schemaVersion = integerOption(context, "schema-version", 1, 2_147_483_647);
    if ((schema === undefined) === (stringOption(context, "schema-id") === undefined)) {
      throw new UsageError("Give exactly one of --columns, --schema and --schema-id.");
    }
    const schemaId = await schemaIdOption(context);
    if (schemaVersion !== undefined && schemaId === undefined) {
      throw new UsageError("--schema-version goes with --schema-id.");
    }
    const interval = pollInterval(context);
    const language = stringOption(context, "language");
    const transcribe = stringOption(context, "transcribe");
    if (transcribe !== undefined && !(transcribeModes as readonly string[]).includes(transcribe)) {
      throw new UsageError(`--transcribe must be auto, never or always; got "${transcribe}".`);
    }
    const shared = {
      videos: await uploadLocalFiles(context, await videosToSubmit(context)),
      ...(language === undefined ? {} : { language }),
      ...(transcribe === undefined ? {} : { transcribe: transcribe as TranscribeMode }),
      ...(context.values["no-reuse"] === true ? { reuse: false } : {}),
    };
    // Exactly one of the two (checked above), as the body's type says.
    const body: SubmitJobBody =
      schema !== undefined
        ? { ...shared, schema }
        : {
            ...shared,
            schema_id: schemaId as string,
            ...(schemaVersion === undefined ? {} : { schema_version: schemaVersion }),
          };
    const created = await context.client().jobs.submit(body, {
      idempotencyKey: stringOption(context, "idempotency-key"),
    });
    if (context.values.wait !== true) {
      context.print(created);
      return exitCodes.ok;
    }
    return reportSettledJob(context, await waitForJob(context, created.job_id, interval));
  },
};

const list: Command = {
  name: "jobs list",
  usage: "[--status running|succeeded|failed] [--search PREFIX] [--limit N] [--offset N]",
  summary: "List jobs, newest first (one page; lists never take rows).",
  options: {
    status: { type: "string" },
    search: { type: "string" },
    limit: { type: "string" },
    offset: { type: "string" },
  },
  optionHelp: [
    "--status S        running, succeeded or failed",
    "--search PREFIX   the start of a job id, a video id or a YouTube video id",
    "--limit N         1 to 100 (default 25)",
    "--offset N        jobs to skip (default 0)",
  ],
  examples: ["jobs list --status running", "jobs list --search dQw4w9 --limit 5"],
  positionals: { min: 0, max: 0 },
  async run(context) {
    const status = stringOption(context, "status");
    if (status !== undefined && !["running", "succeeded", "failed"].includes(status)) {
      throw new UsageError(`--status must be running, succeeded or failed; got "${status}".`);
    }
    const page = await context.client().jobs.list({
      status: status as "running" | "succeeded" | "failed" | undefined,
      search: stringOption(context, "search"),
      limit: integerOption(context, "limit", 1, 100),
      offset: integerOption(context, "offset", 0, Number.MAX_SAFE_INTEGER),
    });
    context.print(page);
    return exitCodes.ok;
  },
};

const progress: Command = {
  name: "jobs progress",
  usage: "<job_id>",
  summary: "Print a job's status and counts; never takes its rows.",
  options: {},
  optionHelp: [],
  examples: ["jobs progress job_01..."],
  positionals: { min: 1, max: 1 },
  async run(context) {
    context.print(await context.client().jobs.progress(context.positionals[0] as string));
    return exitCodes.ok;
  },
};

const wait: Command = {
  name: "jobs wait",
  usage: "<job_id> [--interval MS]",
  summary:
    "Wait until a job settles, then print its progress; never takes its rows. Ctrl-C stops waiting only.",
  options: { ...intervalOption },
  optionHelp: [intervalHelp],
  examples: ["jobs wait job_01... && vidrows-client jobs rows job_01... --format csv --out rows.csv"],
  positionals: { min: 1, max: 1 },
  async run(context) {
    const interval = pollInterval(context);
    return reportSettledJob(context, await waitForJob(context, context.positionals[0] as string, interval));
  },
};

const videos: Command = {
  name: "jobs videos",
  usage: "<job_id>",
  summary:
    "Print each video of a job: its state, and once settled its usage or its failure's code; never takes rows.",
  options: {},
  optionHelp: [],
  examples: ["jobs videos job_01..."],
  positionals: { min: 1, max: 1 },
  async run(context) {
    context.print(await context.client().jobs.videos(context.positionals[0] as string));
    return exitCodes.ok;
  },
};

const cancel: Command = {
  name: "jobs cancel",
  usage: "<job_id>",
  summary:
    "Cancel a running job: videos not yet done fail with `cancelled` and are not charged; prints its counts.",
  options: {},
  optionHelp: [],
  examples: ["jobs cancel job_01... && vidrows-client jobs wait job_01..."],
  positionals: { min: 1, max: 1 },
  async run(context) {
    context.print(await context.client().jobs.cancel(context.positionals[0] as string));
    return exitCodes.ok;
  },
};

export const jobCommands: readonly Command[] = [submit, list, progress, videos, wait, cancel];
