// `POST /v1`: a job and all its videos written in one transaction, with idempotent replays.
import { createHash } from "node:crypto";
import type { Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import type { SchemaDefinition } from "../domain/schema-definition.js";
import { formatTimestamp } from "../domain/timestamps.js";
import { type OtherPlatforms, readSubmittedVideo } from "../domain/submitted-videos.js";
import {
  type StoredTranscribeMode,
  storedTranscribeMode,
  type TranscribeMode,
} from "../domain/transcribe-mode.js";
import { ApiError } from "../http/api-errors.js";
import type { Caller } from "../access/authentication.js";
import { renewCycleIfDue, isCycleDue } from "../credits/cycles.js";
import { reserveForJob } from "../credits/reservation.js";
import type { SchemaService } from "../schemas/saved-schemas.js";
import { checkSchemaColumns } from "../schemas/schema-checks.js";
import type { Store } from "../store/database.js";
import { GroupedWrites } from "../store/grouped-writes.js";
import type { Database } from "../store/tables.js";
import { newDataKey, seal } from "../store/sealed-values.js";
import {
  insertJob,
  recordAdmission,
  recordIdempotency,
  recordKeyedAdmission,
} from "./submission-statements.js";
import { GroupedSubmissions } from "./grouped-submissions.js";
import type { JobCreated } from "./job-schemas.js";

export interface SubmissionInput {
  videos: string[];
  schema?: SchemaDefinition;
  schema_id?: string;
  schema_version?: number;
  language?: string;
  transcribe?: TranscribeMode;
}

export interface SubmissionOutcome {
  body: JobCreated;
  /** True when an earlier submission with the same Idempotency-Key answered this. */
  replayed: boolean;
}

const idempotencyWindowMs = 24 * 3600_000;

/** A job as the submission writes it. */
interface NewJob {
  platformIds: string[];
  /** The videos as submitted, in order. */
  references: string[];
  label: string;
  definition: SchemaDefinition;
  language: string | null;
  transcribe: StoredTranscribeMode | null;
}

/** The 202's body for a job just written. */
function createdBody(jobId: string, job: NewJob, now: number): JobCreated {
  const count = job.platformIds.length;
  return {
    job_id: jobId,
    status: "processing",
    videos: count,
    schema: job.label,
    counts: { queued: count, processing: 0, done: 0, failed: 0 },
    created_at: formatTimestamp(now),
  };
}

/**
 * PostgreSQL keeps deleted values in its files: a job's URLs are sealed under a key of its own, which
 * the handover deletes (store/sealed-values.ts). Each URL alone, so that a worker moves them to the
 * job's videos as they are, without the key.
 */
function sealedReferences(references: string[]): { dataKey: Buffer; submittedUrls: string } {
  const dataKey = newDataKey();
  return { dataKey, submittedUrls: JSON.stringify(references.map((url) => seal(dataKey, url))) };
}

class IdempotencyRace extends Error {}

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
    return id;
  });
}

export class JobSubmission {
  // Submissions that arrive together share one SQLite commit (see grouped-writes.ts).
  private readonly writes: GroupedWrites;
  // PostgreSQL: a workspace's submissions that arrive together share one statement and commit.
  private readonly groups: GroupedSubmissions;

  constructor(
    private readonly store: Store,
    private readonly schemas: SchemaService,
    private readonly extractionAvailable: boolean,
    /** Whether VIDROWS_TRANSCRIBE_* is set: `transcribe: "always"` is refused without it. */
    private readonly transcriptionAvailable = false,
    /** Which pages besides YouTube's this server reads: only where yt-dlp is found (app.ts). */
    private readonly otherPlatforms: OtherPlatforms = "off",
  ) {
    this.writes = new GroupedWrites(store);
    this.groups = new GroupedSubmissions(store);
  }

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
    const platformIds = readVideoReferences(input.videos, this.otherPlatforms);

    // Only a submission with an Idempotency-Key is compared with another, so only it is hashed.
    const idempotency =
      idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: requestHash(input) };
    if (idempotency) {
      const earlier = await this.earlierOutcome(caller.workspaceId, idempotency.key, idempotency.requestHash);
      if (earlier) return earlier;
    }

    const resolved =
      input.schema_id !== undefined
        ? await this.schemas.resolve(caller.workspaceId, input.schema_id, input.schema_version)
        : { label: "inline", definition: input.schema as SchemaDefinition };

    const job: NewJob = {
      platformIds,
      references: input.videos,
      label: resolved.label,
      definition: resolved.definition,
      language: input.language ?? null,
      transcribe: storedTranscribeMode(input.transcribe),
    };
    if (this.store.dialect === "postgres" && !idempotency) {
      const body = await this.submitGrouped(caller, job);
      if (body) return { body, replayed: false };
      // Refused for credits: the transaction below says why, or renews a due cycle and accepts.
    }
    try {
      const body = await this.writes.run((trx) => this.insertJob(trx, caller, { ...job, idempotency }));
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

  /**
   * PostgreSQL: the submission written with the others of its workspace that arrive together, in one
   * statement (see GroupedSubmissions); undefined when the workspace may not spend as its row stands,
   * having written nothing. A new cycle due is started after it, as a read of usage would start it:
   * the job was accepted on the old cycle's figures, and a renewal only raises the balance and clears
   * the usage.
   */
  private async submitGrouped(caller: Caller, job: NewJob): Promise<JobCreated | undefined> {
    const now = Date.now();
    const jobId = newId("job", now);
    const taken = await this.groups.submit(caller.workspaceId, {
      jobId,
      schemaLabel: job.label,
      schemaDefinition: JSON.stringify(job.definition),
      language: job.language,
      transcribe: job.transcribe,
      videoCount: job.platformIds.length,
      ...sealedReferences(job.references),
      platformVideoIds: JSON.stringify(job.platformIds),
      createdAt: now,
    });
    if (!taken) return undefined;
    if (isCycleDue(taken, now)) {
      await this.store.db
        .transaction()
        .execute((trx) => renewCycleIfDue(trx, caller.workspaceId, caller.plan, now));
    }
    return createdBody(jobId, job, now);
  }

  private async insertJob(
    trx: Transaction<Database>,
    caller: Caller,
    job: NewJob & { idempotency: { key: string; requestHash: string } | undefined },
  ): Promise<JobCreated> {
    const db = this.store.db;
    const now = Date.now();
    const count = job.platformIds.length;
    const jobId = newId("job", now);
    // The job first, since it locks nothing: on PostgreSQL the workspace's row lock, which the
    // workspace's other submissions wait for, is then held only for the admission row and the commit.
    await insertJob(db).run(trx, {
      jobId,
      workspaceId: caller.workspaceId,
      schemaLabel: job.label,
      schemaDefinition: JSON.stringify(job.definition),
      language: job.language,
      transcribe: job.transcribe,
      videoCount: count,
      createdAt: now,
    });
    // Refuses the job (402) when the workspace may not spend.
    const firstPriority = await reserveForJob(db, trx, caller, count, now);
    // The videos become rows of the queue when a worker next claims work (pipeline/admissions.ts).
    const admission = {
      workspaceId: caller.workspaceId,
      jobId,
      firstPriority,
      platformVideoIds: JSON.stringify(job.platformIds),
      createdAt: now,
    };
    if (this.store.dialect === "postgres") {
      await recordKeyedAdmission(db).run(trx, { ...admission, ...sealedReferences(job.references) });
    } else {
      await recordAdmission(db).run(trx, { ...admission, submittedUrls: JSON.stringify(job.references) });
    }

    const body = createdBody(jobId, job, now);
    if (job.idempotency) {
      const recorded = await recordIdempotency(db).run(trx, {
        workspaceId: caller.workspaceId,
        key: job.idempotency.key,
        requestHash: job.idempotency.requestHash,
        responseBody: JSON.stringify(body),
        createdAt: now,
        expiredBefore: now - idempotencyWindowMs,
      });
      if (Number(recorded.numAffectedRows ?? 0n) === 0) throw new IdempotencyRace();
    }
    return body;
  }
}
