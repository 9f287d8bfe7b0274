// The README's five-minute walk-through as a program: submit, wait, take the rows once, handle errors.
// Type-checked by the tests (`npm test` at the root), so the README's code cannot drift from the client.
import { Vidrows, VidrowsError } from "@vidrows/client";

const vr = new Vidrows({
  apiKey: process.env.VIDROWS_API_KEY ?? "",
  baseUrl: process.env.VIDROWS_BASE_URL ?? "http://127.0.0.1:8080",
});

export async function quickstart(): Promise<void> {
  // 1. Submit: the client sends an Idempotency-Key, so its retries never make a second job.
  const job = await vr.jobs.submit({
    videos: ["https://www.youtube.com/watch?v=aqz-KE-bpKQ", "dQw4w9WgXcQ"],
    schema: { columns: ["product", "price"] },
  });

  // 2. Wait: polls the job's counts from the list, which never spends the rows.
  const settled = await vr.jobs.wait(job.job_id, {
    onProgress: (p) => console.log(`${p.counts.done} done, ${p.counts.failed} failed of ${p.videos}`),
  });
  console.log(`settled: ${settled.status}, ${settled.credits_charged} credits`);

  // 3. Take the rows: the first read of a settled job hands them over and the server deletes them.
  const read = await vr.jobs.takeRows(job.job_id);
  for (const video of read.results ?? []) {
    if (video.status === "done") console.log(video.video_id, video.rows?.results ?? "already taken");
    else console.error(video.video_id, video.error.code, video.error.message);
  }
}

export async function submitOrExplain(videos: string[]): Promise<string | undefined> {
  try {
    return (await vr.jobs.submit({ videos, schema: { columns: ["name"] } })).job_id;
  } catch (error) {
    if (!(error instanceof VidrowsError)) throw error;
    switch (error.code) {
      case "insufficient_credits":
      case "hard_cap_reached":
        console.error("Out of credits:", error.message);
        return undefined;
      case "invalid_request":
        console.error(`Fix ${error.param ?? "the request"}: ${error.message}`);
        return undefined;
      default:
        throw error;
    }
  }
}
