// `POST /v1`: a job and all its videos written in one transaction, with idempotent replays.
import { createHash } from "node:crypto";
import type { SchemaDefinition } from "../domain/schema-definition.js";
import { type OtherPlatforms, readSubmittedVideo } from "../domain/submitted-videos.js";
import { storedTranscribeMode, type TranscribeMode } from "../domain/transcribe-mode.js";
import { ApiError } from "../http/api-errors.js";
import type { Caller } from "../access/authentication.js";
import type { SchemaService } from "../schemas/saved-schemas.js";
import { checkSchemaColumns } from "../schemas/schema-checks.js";
import type { Store } from "../store/database.js";
import type { JobCreated } from "./job-schemas.js";
import { checkSubmittedUploads, submittedUploads } from "./job-uploads.js";
import { IdempotencyRace, idempotencyWindowMs, type JobWriter, type NewJob } from "./job-writer.js";

export interface SubmissionInput {
  videos: string[];
  schema?: SchemaDefinition;
  schema_id?: string;
  schema_version?: number;
  language?: string;
  transcribe?: TranscribeMode;
  reuse?: boolean;
}

export interface SubmissionOutcome {
  body: JobCreated;
  /** True when an earlier submission with the same Idempotency-Key answered this. */
  replayed: boolean;
}

/** The same body, whatever its key order, hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * What an Idempotency-Key's request is compared by: the body whatever its field order, except that a
 * template's columns keep theirs, because they are the order of the rows' columns (a different job).
 */
function requestHash(input: SubmissionInput): string {
  const fingerprint: Record<string, unknown> = { ...input };
  if (input.schema !== undefined && "template" in input.schema) {
    fingerprint.schema = { template: Object.entries(input.schema.template) };
  }
  return createHash("sha256").update(canonicalJson(fingerprint)).digest("hex");
}

/**
 * Platform ids of the submitted videos, or a 400 naming the first bad or repeated element; `otherPlatforms`
 * says which pages besides YouTube's this server reads (domain/submitted-videos.ts).
 */
export function readVideoReferences(references: string[], otherPlatforms: OtherPlatforms = "off"): string[] {
  return readVideos(references, otherPlatforms).map((video) => video.videoId);
}

/**
 * The submitted videos as read: each one's id, and the address kept for the worker (a page's as read and
 * checked, never the submitted string; a YouTube reference as sent, since its id alone is used).
 */
function readVideos(references: string[], otherPlatforms: OtherPlatforms) {
  const firstIndexOf = new Map<string, number>();
  return references.map((reference, index) => {
    const read = readSubmittedVideo(reference, otherPlatforms);
    if ("refusal" in read) {
      throw new ApiError("invalid_request", `\`videos[${index}]\` ${read.refusal}`, `videos[${index}]`);
    }
    const id = read.videoId;
    const earlier = firstIndexOf.get(id);
    if (earlier !== undefined) {
      throw new ApiError(
        "invalid_request",
        `\`videos[${index}]\` is the same video as \`videos[${earlier}]\` (${id}); list each video once.`,
        `videos[${index}]`,
      );
    }
    firstIndexOf.set(id, index);
    return { videoId: id, kept: read.pageUrl ?? reference };
  });
}

/**
 * `POST /v1`: checks the submission, answers a replayed Idempotency-Key as before, and hands the job to
 * the database's writer (job-writer.ts), chosen at composition (app/services.ts).
 */
export class JobSubmission {
  constructor(
    private readonly store: Store,
    private readonly schemas: SchemaService,
    private readonly writer: JobWriter,
    private readonly extractionAvailable: boolean,
    /** Whether VIDROWS_TRANSCRIBE_* is set: `transcribe: "always"` is refused without it. */
    private readonly transcriptionAvailable = false,
    /** Which pages besides YouTube's this server reads: only where yt-dlp is found (app.ts). */
    private readonly otherPlatforms: OtherPlatforms = "off",
  ) {}

  async submit(caller: Caller, input: SubmissionInput, idempotencyKey?: string): Promise<SubmissionOutcome> {
    checkSchemaColumns(input.schema);
    if (!this.extractionAvailable) {
      throw new ApiError(
        "extraction_unavailable",
        "No language model is configured on this server; set VIDROWS_LLM_API_KEY or VIDROWS_LLM_BASE_URL and restart it.",
      );
    }
    if (input.schema !== undefined && input.schema_id !== undefined) {
      throw new ApiError("invalid_request", "Give either `schema` or `schema_id`, not both.", "schema_id");
    }
    if (input.schema === undefined && input.schema_id === undefined) {
      throw new ApiError(
        "invalid_request",
        "Give the job a `schema`, or the `schema_id` of a saved schema.",
        "schema",
      );
    }
    if (input.schema_version !== undefined && input.schema_id === undefined) {
      throw new ApiError("invalid_request", "`schema_version` goes with `schema_id` only.", "schema_version");
    }
    if (input.videos.length > caller.plan.videosPerJob) {
      throw new ApiError(
        "plan_limit",
        `The ${caller.plan.name} plan allows ${caller.plan.videosPerJob} videos per job; this job has ${input.videos.length}. Split it, or change plans.`,
        "videos",
      );
    }
    if (input.transcribe === "always" && !this.transcriptionAvailable) {
      throw new ApiError(
        "invalid_request",
        'This server has no speech-to-text configured (VIDROWS_TRANSCRIBE_BASE_URL or VIDROWS_TRANSCRIBE_MODEL), so `transcribe` cannot be "always".',
        "transcribe",
      );
    }
    const videos = readVideos(input.videos, this.otherPlatforms);
    const platformIds = videos.map((video) => video.videoId);

    // Only a submission with an Idempotency-Key is compared with another, so only it is hashed.
    const idempotency =
      idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: requestHash(input) };
    if (idempotency) {
      const earlier = await this.earlierOutcome(caller.workspaceId, idempotency.key, idempotency.requestHash);
      if (earlier) return earlier;
    }

    // After a replay's answer: a replayed job's uploads are its own by now.
    const uploads = submittedUploads(platformIds);
    await checkSubmittedUploads(
      this.store,
      caller.workspaceId,
      uploads,
      input.transcribe ?? "auto",
      this.transcriptionAvailable,
    );

    const resolved =
      input.schema_id !== undefined
        ? await this.schemas.resolve(caller.workspaceId, input.schema_id, input.schema_version)
        : { label: "inline", definition: input.schema as SchemaDefinition };

    const job: NewJob = {
      platformIds,
      references: videos.map((video) => video.kept),
      label: resolved.label,
      definition: resolved.definition,
      language: input.language ?? null,
      transcribe: storedTranscribeMode(input.transcribe),
      reuseTranscripts: input.reuse === false ? 0 : null,
      uploads,
    };
    try {
      const body = await this.writer.write(caller, job, idempotency);
      return { body, replayed: false };
    } catch (error) {
      // Another request with the same key committed first; answer as it did (or refuse a different body).
      if (error instanceof IdempotencyRace && idempotency) {
        const earlier = await this.earlierOutcome(
          caller.workspaceId,
          idempotency.key,
          idempotency.requestHash,
        );
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  private async earlierOutcome(workspaceId: string, key: string, requestHash: string, now = Date.now()) {
    const row = await this.store.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("key", "=", key)
      .where("created_at", ">", now - idempotencyWindowMs)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.request_hash !== requestHash) {
      throw new ApiError(
        "idempotency_conflict",
        "This Idempotency-Key was used within the last 24 hours with a different request; use a new key for a new job.",
      );
    }
    return { body: JSON.parse(row.response_body) as JobCreated, replayed: true };
  }
}
