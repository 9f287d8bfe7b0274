// The statements `POST /v1` runs, prepared once per store (see prepared-query.ts for why); its
// reservation of credits and queue places is credits/reservation.ts.
import { sql } from "kysely";
import { queuePlacesTaken } from "../credits/reservation.js";
import { preparedPerStore } from "../store/prepared-query.js";

export const insertJob = preparedPerStore<
  {
    jobId: string;
    workspaceId: string;
    schemaLabel: string;
    schemaDefinition: string;
    language: string | null;
    videoCount: number;
    createdAt: number;
  },
  never
>((db, { jobId, workspaceId, schemaLabel, schemaDefinition, language, videoCount, createdAt }) =>
  db.insertInto("jobs").values({
    id: jobId,
    workspace_id: workspaceId,
    schema_label: schemaLabel,
    schema_definition: schemaDefinition,
    language,
    status: "processing",
    video_count: videoCount,
    queued_count: videoCount,
    processing_count: 0,
    done_count: 0,
    failed_count: 0,
    has_failures: 0,
    credits_charged: 0,
    created_at: createdAt,
  }),
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

/** The places `submitAtOnce` took, and the dates that say whether the workspace's new cycle is due. */
export interface TakenPlaces {
  first_priority: number;
  created_at: number;
  cycle_started_at: number;
}

/**
 * PostgreSQL: a whole submission in one statement, committed on its own: the workspace's queue places
 * taken (credits/reservation.ts) and, only if it may spend, the job, its data key and its admission
 * row, each written from the row the places came back in. Answers no row when the workspace may not
 * spend, having written nothing. A transaction of five round trips (BEGIN, three statements, COMMIT)
 * becomes one, and the workspace's row lock, which its other submissions wait for, is held for one
 * statement and the commit. (A submission with an Idempotency-Key, or one refused here, goes through
 * the transaction: it may have to roll back, or renew the cycle and try again.)
 */
export const submitAtOnce = preparedPerStore<
  {
    jobId: string;
    workspaceId: string;
    schemaLabel: string;
    schemaDefinition: string;
    language: string | null;
    videoCount: number;
    createdAt: number;
    dataKey: Buffer;
    platformVideoIds: string;
    submittedUrls: string;
  },
  TakenPlaces
>((db, p) =>
  db
    .with("places", (q) => queuePlacesTaken(q, p.videoCount, p.workspaceId))
    .with("job", (q) =>
      q
        .insertInto("jobs")
        .columns([
          "id",
          "workspace_id",
          "schema_label",
          "schema_definition",
          "language",
          "status",
          "video_count",
          "queued_count",
          "processing_count",
          "done_count",
          "failed_count",
          "has_failures",
          "credits_charged",
          "created_at",
        ])
        .expression((eb) =>
          eb
            .selectFrom("places")
            .select([
              sql<string>`cast(${p.jobId} as text)`.as("id"),
              sql<string>`cast(${p.workspaceId} as text)`.as("workspace_id"),
              sql<string>`cast(${p.schemaLabel} as text)`.as("schema_label"),
              sql<string>`cast(${p.schemaDefinition} as text)`.as("schema_definition"),
              sql<string | null>`cast(${p.language} as text)`.as("language"),
              sql.lit("processing").as("status"),
              sql<number>`cast(${p.videoCount} as integer)`.as("video_count"),
              sql<number>`cast(${p.videoCount} as integer)`.as("queued_count"),
              sql.lit(0).as("processing_count"),
              sql.lit(0).as("done_count"),
              sql.lit(0).as("failed_count"),
              sql.lit(0).as("has_failures"),
              sql.lit(0).as("credits_charged"),
              sql<number>`cast(${p.createdAt} as bigint)`.as("created_at"),
            ]),
        ),
    )
    .with("job_key", (q) =>
      q
        .insertInto("job_keys")
        .columns(["job_id", "data_key"])
        .expression((eb) =>
          eb
            .selectFrom("places")
            .select([
              sql<string>`cast(${p.jobId} as text)`.as("job_id"),
              sql<Buffer>`cast(${p.dataKey} as bytea)`.as("data_key"),
            ]),
        ),
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
            .selectFrom("places")
            .select([
              sql<string>`cast(${p.workspaceId} as text)`.as("workspace_id"),
              sql<string>`cast(${p.jobId} as text)`.as("job_id"),
              "places.first_priority",
              sql<string>`cast(${p.platformVideoIds} as text)`.as("platform_video_ids"),
              sql<string>`cast(${p.submittedUrls} as text)`.as("submitted_urls"),
              sql<number>`cast(${p.createdAt} as bigint)`.as("created_at"),
            ]),
        ),
    )
    .selectFrom("places")
    .select(["places.first_priority", "places.created_at", "places.cycle_started_at"]),
);
