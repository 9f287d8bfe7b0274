// The statements `POST /v1` runs, prepared once per store (see prepared-query.ts for why); its
// reservation of credits and queue places is credits/reservation.ts.
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
