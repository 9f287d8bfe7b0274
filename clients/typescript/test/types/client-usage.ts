// Type-level test: a program using the client as documented compiles (checked by tsc in `npm run typecheck`).
import type {
  JobRead,
  RowSource,
  Vidrows,
  VidrowsError,
  VidrowsErrorCode,
  VideoRows,
  WebhookEvent,
} from "@vidrows/client";

export async function documentedUse(vr: Vidrows, secret: string, body: string, headers: Headers) {
  const created = await vr.jobs.submit(
    { videos: ["dQw4w9WgXcQ"], schema_id: "sch_1", schema_version: 2, language: "en" },
    { idempotencyKey: "order-42" },
  );
  const settled = await vr.jobs.wait(created.job_id, {
    pollIntervalMs: 500,
    onProgress: (p) => p.counts.queued,
  });
  const status: "processing" | "done" | "failed" | "partial" = settled.status;
  const read: JobRead = await vr.jobs.takeRows(created.job_id);
  const outcomes = (read.results ?? []).map((video) =>
    video.status === "done" ? video.rows?.results[0]?.["price"] : video.error.code,
  );
  // Each row's source, beside it: the span it came from and a link to that moment.
  const sources: RowSource[] = (read.results ?? []).flatMap((video) =>
    video.status === "done" && video.rows !== null ? video.rows.sources : [],
  );
  const moments = sources.map((source) => `${source.url} (${source.start_seconds}-${source.end_seconds} s)`);
  const firstRows: VideoRows | null = read.results?.[0]?.rows ?? null;
  for await (const job of vr.jobs.iterate({ status: "running", search: "job_" })) void job.counts.processing;
  const page = await vr.jobs.list({ limit: 10, offset: 0 });
  const cap: number | null = (await vr.usage.setHardCap(null)).credits.hard_cap;
  const saved = await vr.schemas.create({ name: "products", schema: { template: { price: "in dollars" } } });
  await vr.schemas.publishVersion(saved.id, { schema: { columns: ["a"] } });
  const endpoint = await vr.webhooks.create({ url: "https://example.com", events: ["job.completed"] });
  await vr.webhooks.update(endpoint.id, { disabled: true });
  const attempts = await vr.webhooks.attempts(endpoint.id, { limit: 5 });
  const key: string = (await vr.keys.create({ environment: "test" })).key;
  const event: WebhookEvent = await (await import("@vidrows/client")).verifyWebhook(secret, body, headers);
  return { status, outcomes, moments, firstRows, page, cap, attempts, key, event };
}

/** Every error code is named: a switch that misses one does not compile (the `never` below). */
export function describeCode(error: VidrowsError): string {
  const code: VidrowsErrorCode = error.code;
  switch (code) {
    case "invalid_request":
    case "unauthorized":
    case "insufficient_credits":
    case "hard_cap_reached":
    case "plan_limit":
    case "job_not_found":
    case "schema_not_found":
    case "schema_version_not_found":
    case "webhook_not_found":
    case "key_not_found":
    case "delivery_not_found":
    case "listing_not_found":
    case "upload_not_found":
    case "not_found":
    case "method_not_allowed":
    case "schema_name_taken":
    case "idempotency_conflict":
    case "job_settled":
    case "payload_too_large":
    case "unsupported_media_type":
    case "rate_limited":
    case "internal_error":
    case "extraction_unavailable":
    case "listing_unavailable":
    case "platform_unavailable":
    case "unavailable":
    case "insufficient_storage":
      return `server: ${code}`;
    case "network_error":
    case "timeout":
    case "aborted":
    case "invalid_response":
      return `client: ${code}`;
    default: {
      const unhandled: never = code;
      return unhandled;
    }
  }
}
