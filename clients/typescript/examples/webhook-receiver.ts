// A webhook receiver in plain Node that submits its own job, then takes the rows of that job only when its
// event arrives. A workspace's events come for every job in it, whoever submitted the job (the CLI, the
// dashboard, another program), and rows are handed over once: a receiver that took every job's rows would
// take them from whoever was waiting for them. Run it from the repository's root (docs/webhooks.md):
//   VIDROWS_WEBHOOK_SECRET=whsec_... npx tsx clients/typescript/examples/webhook-receiver.ts dQw4w9WgXcQ --columns promise
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Vidrows, VidrowsWebhookError, verifyWebhook } from "@vidrows/client";

const vr = new Vidrows({
  apiKey: process.env.VIDROWS_API_KEY ?? "",
  baseUrl: process.env.VIDROWS_BASE_URL ?? "http://127.0.0.1:8080",
});
const secret = process.env.VIDROWS_WEBHOOK_SECRET ?? ""; // the `secret` of vr.webhooks.create()
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const { positionals: videos, values } = parseArgs({
  options: { columns: { type: "string", default: "" } },
  allowPositionals: true,
});
const columns = values.columns.split(",").filter((column) => column !== "");

// The jobs this receiver submitted, whose rows it takes; in production, a table of your database.
const ours = new Set<string>();
// Jobs whose `job.completed` came before the submission's answer did (a fast job), taken once it does.
const completedEarly = new Set<string>();

async function takeRows(jobId: string): Promise<void> {
  const read = await vr.jobs.takeRows(jobId);
  for (const video of read.results ?? []) {
    if (video.status === "done") console.log(video.video_id, JSON.stringify(video.rows?.results));
    else console.log(video.video_id, "failed:", video.error.code);
  }
}

export const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", async () => {
    try {
      // The raw body, exactly as received: a re-serialised object would not match the signature.
      const event = await verifyWebhook(secret, Buffer.concat(chunks).toString("utf8"), request.headers);
      response.writeHead(204).end(); // answer at once; do the work afterwards
      console.log("verified", event.type, event.data.job_id, event.data.status);
      if (event.type !== "job.completed") return;
      const jobId = event.data.job_id;
      if (ours.has(jobId)) await takeRows(jobId);
      else {
        completedEarly.add(jobId);
        console.log(
          `${jobId} was not submitted by this receiver: its rows are left for whoever submitted it`,
        );
      }
    } catch (error) {
      if (!(error instanceof VidrowsWebhookError)) throw error;
      console.error("refused a delivery:", error.code);
      response.writeHead(400).end(error.code);
    }
  });
});

receiver.listen(port, "127.0.0.1", async () => {
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/hooks`);
  if (videos.length === 0 || columns.length === 0) {
    console.log("No videos and --columns given: events are printed, no rows are taken.");
    return;
  }
  const job = await vr.jobs.submit({ videos, schema: { columns } });
  ours.add(job.job_id);
  console.log(`submitted ${job.job_id}: its rows are taken when its job.completed arrives`);
  if (completedEarly.has(job.job_id)) await takeRows(job.job_id);
});
