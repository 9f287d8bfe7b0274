// The plan table: what each plan allows. Built in, or replaced whole by the JSON file named in VIDROWS_PLANS.
import { readFileSync } from "node:fs";

export interface Plan {
  readonly id: string;
  readonly name: string;
  readonly requestsPerMinute: number;
  readonly apiKeys: number;
  /** 0 means the plan has no webhooks. */
  readonly webhookEndpoints: number;
  readonly cycleAllowance: number;
  readonly videosPerJob: number;
  /** What a transcribed video costs per started minute, instead of one credit. */
  readonly transcriptionCreditsPerMinute: number;
  /** The longest video a job of the plan may process; longer ones fail before their audio is fetched. */
  readonly longestVideoMinutes: number;
  /** The largest file a workspace of the plan may upload (`POST /v1/uploads`), in bytes; 0: no uploads. */
  readonly uploadBytes: number;
}

export type PlanTable = ReadonlyMap<string, Plan>;

interface PlanFileEntry {
  name: string;
  requests_per_minute: number;
  api_keys: number;
  webhook_endpoints: number;
  cycle_allowance: number;
  videos_per_job: number;
  /** Optional in a plan file (older files lack it): 2 when left out. */
  transcription_credits_per_minute?: number;
  /** Optional in a plan file: 720 (12 hours, the longest a YouTube upload may be) when left out. */
  longest_video_minutes?: number;
  /** Optional in a plan file: 1024 (1 GiB) when left out; 0 means the plan takes no uploads. */
  upload_megabytes?: number;
}

const defaultTranscriptionCreditsPerMinute = 2;
const defaultLongestVideoMinutes = 720;
const defaultUploadMegabytes = 1024;
const bytesPerMegabyte = 1024 * 1024;

const builtInPlans: Record<string, PlanFileEntry> = {
  free: {
    name: "Free",
    requests_per_minute: 60,
    api_keys: 2,
    webhook_endpoints: 0,
    cycle_allowance: 100,
    videos_per_job: 10,
    transcription_credits_per_minute: 2,
    upload_megabytes: 100,
  },
  pro: {
    name: "Pro",
    requests_per_minute: 600,
    api_keys: 10,
    webhook_endpoints: 10,
    cycle_allowance: 10_000,
    videos_per_job: 100,
    transcription_credits_per_minute: 2,
    upload_megabytes: 4096,
  },
  scale: {
    name: "Scale",
    requests_per_minute: 6000,
    api_keys: 100,
    webhook_endpoints: 50,
    cycle_allowance: 100_000,
    videos_per_job: 1000,
    transcription_credits_per_minute: 2,
    upload_megabytes: 16384,
  },
};

const numericFields = [
  "requests_per_minute",
  "api_keys",
  "webhook_endpoints",
  "cycle_allowance",
  "videos_per_job",
] as const;

/** Turns a plan file's object into a plan table, or throws a message that names the offending entry. */
export function parsePlanTable(raw: unknown, source: string): PlanTable {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error(`${source}: expected an object keyed by plan id.`);
  }
  const plans = new Map<string, Plan>();
  for (const [id, value] of Object.entries(raw)) {
    if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(id)) {
      throw new Error(`${source}: plan id "${id}" must be lowercase letters, digits, "-" or "_".`);
    }
    if (typeof value !== "object" || value === null) {
      throw new Error(`${source}: plan "${id}" must be an object.`);
    }
    const entry = value as Record<string, unknown>;
    if (typeof entry.name !== "string" || entry.name.length === 0) {
      throw new Error(`${source}: plan "${id}" needs a "name" string.`);
    }
    for (const field of numericFields) {
      const n = entry[field];
      if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
        throw new Error(`${source}: plan "${id}" needs "${field}" as an integer >= 0.`);
      }
    }
    const transcriptionRate = entry.transcription_credits_per_minute;
    if (
      transcriptionRate !== undefined &&
      (typeof transcriptionRate !== "number" ||
        !Number.isSafeInteger(transcriptionRate) ||
        transcriptionRate < 1)
    ) {
      throw new Error(`${source}: plan "${id}" needs "transcription_credits_per_minute" as an integer >= 1.`);
    }
    const longest = entry.longest_video_minutes;
    if (
      longest !== undefined &&
      (typeof longest !== "number" || !Number.isSafeInteger(longest) || longest < 1)
    ) {
      throw new Error(`${source}: plan "${id}" needs "longest_video_minutes" as an integer >= 1.`);
    }
    const uploadMegabytes = entry.upload_megabytes;
    if (
      uploadMegabytes !== undefined &&
      (typeof uploadMegabytes !== "number" || !Number.isSafeInteger(uploadMegabytes) || uploadMegabytes < 0)
    ) {
      throw new Error(`${source}: plan "${id}" needs "upload_megabytes" as an integer >= 0.`);
    }
    const e = entry as unknown as PlanFileEntry;
    if (e.requests_per_minute < 1 || e.videos_per_job < 1) {
      throw new Error(`${source}: plan "${id}" needs requests_per_minute and videos_per_job of at least 1.`);
    }
    plans.set(
      id,
      Object.freeze({
        id,
        name: e.name,
        requestsPerMinute: e.requests_per_minute,
        apiKeys: e.api_keys,
        webhookEndpoints: e.webhook_endpoints,
        cycleAllowance: e.cycle_allowance,
        videosPerJob: e.videos_per_job,
        transcriptionCreditsPerMinute:
          e.transcription_credits_per_minute ?? defaultTranscriptionCreditsPerMinute,
        longestVideoMinutes: e.longest_video_minutes ?? defaultLongestVideoMinutes,
        uploadBytes: (e.upload_megabytes ?? defaultUploadMegabytes) * bytesPerMegabyte,
      }),
    );
  }
  if (plans.size === 0) throw new Error(`${source}: the plan table is empty.`);
  return plans;
}

export function loadPlanTable(path: string | undefined): PlanTable {
  if (path === undefined) return parsePlanTable(builtInPlans, "built-in plans");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`VIDROWS_PLANS: cannot read ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`VIDROWS_PLANS: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parsePlanTable(raw, `VIDROWS_PLANS (${path})`);
}
