// The statements `POST /v1` runs, prepared once per store (see prepared-query.ts for why); its
// reservation of credits and queue places is credits/reservation.ts.
import { type Expression, type Insertable, sql } from "kysely";
import { queuePlacesTaken } from "../credits/reservation.js";
import type { StoredTranscribeMode } from "../domain/transcribe-mode.js";
import { preparedPerStore } from "../store/prepared-query.js";
import type { JobsTable } from "../store/tables.js";
import { newJobColumnNames, newJobRow, type SubmittedJobFields } from "./job-row.js";

/** The job's row (its columns in job-row.ts), the first statement of a submission's transaction. */
export const insertJob = preparedPerStore<SubmittedJobFields, never>((db, slots) =>
  db.insertInto("jobs").values(
    newJobRow<unknown>(
      (field) => slots[field],
      (value) => value,
    ) as Insertable<JobsTable>,
  ),
);

/** Records the job's videos and queue places, for a worker to turn into rows of `videos` (admissions.ts). */
export const recordAdmission = preparedPerStore<
  {
    workspaceId: string;
    jobId: string;
    firstPriority: number;
    platformVideoIds: string;
    submittedUrls: string;
    createdAt: number;
  },
  never
>((db, { workspaceId, jobId, firstPriority, platformVideoIds, submittedUrls, createdAt }) =>
  db.insertInto("job_admissions").values({
    workspace_id: workspaceId,
    job_id: jobId,
    first_priority: firstPriority,
    platform_video_ids: platformVideoIds,
    submitted_urls: submittedUrls,
    created_at: createdAt,
  }),
);

/**
 * PostgreSQL: the admission and the job's data key (store/sealed-values.ts) in one statement, one round
 * trip; `submittedUrls` holds the URLs sealed under that key.
 */
export const recordKeyedAdmission = preparedPerStore<
  {
    workspaceId: string;
    jobId: string;
    dataKey: Buffer;
    firstPriority: number;
    platformVideoIds: string;
    submittedUrls: string;
    createdAt: number;
  },
  never
>((db, { workspaceId, jobId, dataKey, firstPriority, platformVideoIds, submittedUrls, createdAt }) =>
  db
    .with("job_key", (q) => q.insertInto("job_keys").values({ job_id: jobId, data_key: dataKey }))
    .insertInto("job_admissions")
    .values({
      workspace_id: workspaceId,
      job_id: jobId,
      first_priority: firstPriority,
      platform_video_ids: platformVideoIds,
      submitted_urls: submittedUrls,
      created_at: createdAt,
    }),
);

export const recordIdempotency = preparedPerStore<
  {
    workspaceId: string;
    key: string;
    requestHash: string;
    responseBody: string;
    createdAt: number;
    expiredBefore: number;
  },
  never
>((db, { workspaceId, key, requestHash, responseBody, createdAt, expiredBefore }) =>
  db
    .insertInto("idempotency_keys")
    .values({
      workspace_id: workspaceId,
      key,
      request_hash: requestHash,
      response_status: 202,
      response_body: responseBody,
      created_at: createdAt,
    })
    // A record older than the window is taken over; a live one means another request won the race.
    .onConflict((c) =>
      c
        .columns(["workspace_id", "key"])
        .doUpdateSet({ request_hash: requestHash, response_body: responseBody, created_at: createdAt })
        .where("idempotency_keys.created_at", "<=", expiredBefore),
    ),
);

/** What `submitTogether` answers when the workspace could spend: the dates that say whether its new cycle is due. */
export interface TakenPlaces {
  created_at: number;
  cycle_started_at: number;
}

/** One job of `submitTogether`'s statement, as the rows of `unnest` give its arrays back. */
interface SubmittedJob {
  job_id: string;
  schema_label: string;
  schema_definition: string;
  language: string | null;
  transcribe: StoredTranscribeMode | null;
  reuse_transcripts: number | null;
  video_count: number;
  data_key: Buffer;
  platform_video_ids: string;
  submitted_urls: string;
  created_at: number;
  /** The job's place in the arrays, from 1: its videos' queue places follow those of the jobs before it. */
  position: number;
}

/**
 * PostgreSQL: the submissions of one workspace that arrive together, written by one statement and one
 * commit (jobs/grouped-submissions.ts). It takes the workspace's queue places for all their videos
 * (credits/reservation.ts) and, only if the workspace may spend, writes each job, its data key and its
 * admission row, the jobs' places one after another in the order given. Each array holds one element
 * per job. Answers no row when the workspace may not spend, having written nothing.
 *
 * One statement and its commit instead of a transaction of five round trips (BEGIN, three statements,
 * COMMIT) per submission: the workspace's row lock, which its submissions take turns on, is held for
 * one statement and one commit per group, where each submission used to wait for the last one's commit.
 */
export const submitTogether = preparedPerStore<
  {
    workspaceId: string;
    /** The videos of all the jobs, and how many jobs. */
    videos: number;
    jobs: number;
    jobIds: string[];
    schemaLabels: string[];
    schemaDefinitions: string[];
    languages: (string | null)[];
    transcribeModes: (StoredTranscribeMode | null)[];
    reuseChoices: (number | null)[];
    videoCounts: number[];
    dataKeys: Buffer[];
    platformVideoIds: string[];
    submittedUrls: string[];
    createdAts: number[];
  },
  TakenPlaces
>((db, p) =>
  db
    .with("places", (q) => queuePlacesTaken(q, { videos: p.videos, jobs: p.jobs }, p.workspaceId))
    .with(
      "submitted",
      () => sql<SubmittedJob>`(
        select * from unnest(
          cast(${p.jobIds} as text[]), cast(${p.schemaLabels} as text[]),
          cast(${p.schemaDefinitions} as text[]), cast(${p.languages} as text[]),
          cast(${p.transcribeModes} as text[]), cast(${p.reuseChoices} as integer[]),
          cast(${p.videoCounts} as integer[]), cast(${p.dataKeys} as bytea[]),
          cast(${p.platformVideoIds} as text[]), cast(${p.submittedUrls} as text[]),
          cast(${p.createdAts} as bigint[])
        ) with ordinality as submitted(job_id, schema_label, schema_definition, language, transcribe,
          reuse_transcripts, video_count,
          data_key, platform_video_ids, submitted_urls, created_at, position)
      )`,
    )
    .with(
      "placed",
      () => sql<SubmittedJob & { first_priority: number }>`(
        select submitted.*,
          places.first_priority + sum(submitted.video_count) over (order by submitted.position)
            - submitted.video_count as first_priority
        from submitted, places
      )`,
    )
    .with("job", (q) => {
      // The submission's fields as the rows of `placed` hold them (the workspace is the statement's).
      const placedField: Record<keyof SubmittedJobFields, Expression<unknown>> = {
        jobId: sql.ref("placed.job_id"),
        workspaceId: sql`cast(${p.workspaceId} as text)`,
        schemaLabel: sql.ref("placed.schema_label"),
        schemaDefinition: sql.ref("placed.schema_definition"),
        language: sql.ref("placed.language"),
        transcribe: sql.ref("placed.transcribe"),
        reuseTranscripts: sql.ref("placed.reuse_transcripts"),
        videoCount: sql.ref("placed.video_count"),
        createdAt: sql.ref("placed.created_at"),
      };
      const row = newJobRow(
        (field, column) => sql`${placedField[field]}`.as(column),
        (value, column) => sql.lit(value).as(column),
      );
      return q
        .insertInto("jobs")
        .columns(newJobColumnNames)
        .expression((eb) => eb.selectFrom("placed").select(newJobColumnNames.map((column) => row[column])));
    })
    .with("job_key", (q) =>
      q
        .insertInto("job_keys")
        .columns(["job_id", "data_key"])
        .expression((eb) => eb.selectFrom("placed").select(["placed.job_id", "placed.data_key"])),
    )
    .with("admission", (q) =>
      q
        .insertInto("job_admissions")
        .columns([
          "workspace_id",
          "job_id",
          "first_priority",
          "platform_video_ids",
          "submitted_urls",
          "created_at",
        ])
        .expression((eb) =>
          eb
            .selectFrom("placed")
            .select([
              sql<string>`cast(${p.workspaceId} as text)`.as("workspace_id"),
              "placed.job_id",
              "placed.first_priority",
              "placed.platform_video_ids",
              "placed.submitted_urls",
              "placed.created_at",
            ]),
        ),
    )
    .selectFrom("places")
    .select(["places.created_at", "places.cycle_started_at"]),
);
