// A webhook receiver in plain Node: verify each delivery with the endpoint's secret, then take the rows.
// Run it from the repository's root (docs/webhooks.md, "Try it on your machine"):
//   VIDROWS_WEBHOOK_SECRET=whsec_... npx tsx clients/typescript/examples/webhook-receiver.ts
import { createServer } from "node:http";
import { Vidrows, VidrowsWebhookError, verifyWebhook } from "@vidrows/client";

const vr = new Vidrows({
  apiKey: process.env.VIDROWS_API_KEY ?? "",
  baseUrl: process.env.VIDROWS_BASE_URL ?? "http://127.0.0.1:8080",
});
const secret = process.env.VIDROWS_WEBHOOK_SECRET ?? ""; // the `secret` of vr.webhooks.create()
const port = Number(process.env.RECEIVER_PORT ?? 4000);

export const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", async () => {
    try {
      // The raw body, exactly as received: a re-serialised object would not match the signature.
      const event = await verifyWebhook(secret, Buffer.concat(chunks).toString("utf8"), request.headers);
      response.writeHead(204).end(); // answer at once; do the work afterwards
      console.log("verified", event.type, event.data.job_id, event.data.status);
      if (event.type === "job.completed") {
        const read = await vr.jobs.takeRows(event.data.job_id);
        for (const video of read.results ?? []) {
          if (video.status === "done") console.log(video.video_id, JSON.stringify(video.rows?.results));
        }
      }
    } catch (error) {
      if (!(error instanceof VidrowsWebhookError)) throw error;
      console.error("refused a delivery:", error.code);
      response.writeHead(400).end(error.code);
    }
  });
});

receiver.listen(port, "127.0.0.1", () => console.log(`Receiving webhooks at http://127.0.0.1:${port}/hooks`));
