// A webhook receiver in plain Node: verify each delivery with the endpoint's secret, then take the rows.
import { createServer } from "node:http";
import { Vidrows, VidrowsWebhookError, verifyWebhook } from "@vidrows/client";

const vr = new Vidrows({ apiKey: process.env.VIDROWS_API_KEY ?? "" });
const secret = process.env.VIDROWS_WEBHOOK_SECRET ?? ""; // the `secret` of vr.webhooks.create()

export const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", async () => {
    try {
      // The raw body, exactly as received: a re-serialised object would not match the signature.
      const event = await verifyWebhook(secret, Buffer.concat(chunks).toString("utf8"), request.headers);
      response.writeHead(204).end();
      if (event.type === "job.completed") {
        const read = await vr.jobs.takeRows(event.data.job_id);
        console.log(event.data.job_id, read.results?.length, "videos");
      }
    } catch (error) {
      if (error instanceof VidrowsWebhookError) response.writeHead(400).end(error.code);
      else throw error;
    }
  });
});
