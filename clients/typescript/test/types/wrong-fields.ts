// Type-level test: programs passing wrong fields do not compile. Each `@ts-expect-error` must meet an
// error, or tsc (in `npm run typecheck`) fails: so a client that accepted these would fail the build.
import type { Vidrows } from "@vidrows/client";

export async function wrongUse(vr: Vidrows) {
  // @ts-expect-error `video` is not a field; `videos` is.
  await vr.jobs.submit({ video: ["dQw4w9WgXcQ"], schema: { columns: ["a"] } });
  // @ts-expect-error `videos` must be strings.
  await vr.jobs.submit({ videos: [42], schema: { columns: ["a"] } });
  // @ts-expect-error `columns` must be a list of names.
  await vr.jobs.submit({ videos: ["dQw4w9WgXcQ"], schema: { columns: "a,b" } });
  // @ts-expect-error `finished` is not a list filter.
  await vr.jobs.list({ status: "finished" });
  // @ts-expect-error the hard cap is a number or null.
  await vr.usage.setHardCap("100");
  // @ts-expect-error `job.started` is not an event.
  await vr.webhooks.create({ url: "https://example.com", events: ["job.started"] });
  // @ts-expect-error `enabled` is not a field; `disabled` is.
  await vr.webhooks.update("wh_1", { enabled: true });
  // @ts-expect-error keys are `live` or `test`.
  await vr.keys.create({ environment: "staging" });
  const read = await vr.jobs.takeRows("job_1");
  // @ts-expect-error results may be null while the job runs.
  void read.results.length;
  const video = read.results?.[0];
  if (video?.status === "done" && video.rows !== null) {
    // @ts-expect-error a source's start is a number of seconds, not a time of day.
    const start: string = video.rows.sources[0]!.start_seconds;
    void start;
  }
  // @ts-expect-error `idempotency` is not an option; `idempotencyKey` is.
  await vr.jobs.submit({ videos: ["dQw4w9WgXcQ"], schema: { columns: ["a"] } }, { idempotency: "k" });
}
