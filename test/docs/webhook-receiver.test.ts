// docs/webhooks.md, "Try it on your machine", followed as written: a server with
// VIDROWS_WEBHOOK_ALLOW_PRIVATE=1, the example receiver run with `npx tsx` as a child process and
// registered over plain http; it submits its job, verifies the delivery and takes that job's rows. A job
// submitted meanwhile from the CLI is heard of but left alone: the CLI takes its rows afterwards. What
// differs from a reader's run: the model (a fake), the captions (a folder), and the ports (free ones, in
// place of 8080 and 4000).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModel } from "../support/fake-model.js";
import { ShellSession } from "../support/shell-session.js";
import { waitUntil } from "../support/waiting.js";
import { markedCommands } from "./markdown.js";
import {
  type Background,
  checkoutFolder,
  readerEnvironment,
  requireCurrentBuild,
  repositoryRoot,
  startInBackground,
  startRowsModel,
  startServerCommands,
  type StartedServer,
} from "./reader-setup.js";

const page = readFileSync(join(repositoryRoot, "docs/webhooks.md"), "utf8");
const caption = "Never gonna run around and desert you.";
const otherCaption = "A big rabbit wakes up under a tree.";
const documentedPort = "4000";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the webhook receiver recipe of docs/webhooks.md", () => {
  const blocks = {
    server: markedCommands(page, "docs/webhooks.md", "webhook-recipe: server"),
    register: markedCommands(page, "docs/webhooks.md", "webhook-recipe: register"),
    receiver: markedCommands(page, "docs/webhooks.md", "webhook-recipe: receiver"),
    submit: markedCommands(page, "docs/webhooks.md", "webhook-recipe: submit"),
  };
  const folder = checkoutFolder();
  let model: FakeModel;
  let server: StartedServer | undefined;
  let receiver: Background<true> | undefined;
  let shell: ShellSession | undefined;

  beforeAll(async () => {
    requireCurrentBuild();
    model = await startRowsModel();
  });

  afterAll(async () => {
    shell?.close();
    await receiver?.stop();
    await server?.stop();
    await model?.close();
    folder.remove();
  });

  it("allows private addresses, registers an http:// receiver on the documented port, and runs the example", () => {
    expect(blocks.server.join("\n")).toContain("VIDROWS_WEBHOOK_ALLOW_PRIVATE=1");
    expect(blocks.register.join("\n")).toContain(`http://127.0.0.1:${documentedPort}/hooks`);
    expect(blocks.receiver.join("\n")).toContain("clients/typescript/examples/webhook-receiver.ts");
  });

  it("runs the receiver's own job and takes its rows, leaving another job's rows to the CLI that submitted it", async () => {
    const video = /webhook-receiver\.ts ([\w-]{11})\b/.exec(blocks.receiver.join("\n"))?.[1];
    expect(video, "the receiver block names a video id").toBeDefined();
    const otherVideo = /jobs submit ([\w-]{11})\b/.exec(blocks.submit.join("\n"))?.[1];
    expect(otherVideo, "the submit block names another video id").toBeDefined();
    expect(otherVideo).not.toBe(video);
    const captions = join(folder.path, "test-captions");
    mkdirSync(captions);
    const track = (text: string) => `WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n${text}\n`;
    writeFileSync(join(captions, `${video}.vtt`), track(caption));
    writeFileSync(join(captions, `${otherVideo}.vtt`), track(otherCaption));

    server = await startServerCommands(
      blocks.server.map((command) => command.replaceAll("sk-...", "sk-webhook-recipe-test")),
      folder.path,
      readerEnvironment({ VIDROWS_LLM_BASE_URL: model.url, VIDROWS_CAPTIONS: `dir:${captions}`, PORT: "0" }),
      150_000,
    );
    const port = String(await freePort());
    const asTyped = (command: string) =>
      command
        .replaceAll("vr_live_...", (server as StartedServer).key)
        .replaceAll(`:${documentedPort}/`, `:${port}/`);

    // The second terminal: the key exported, the receiver registered, its secret printed.
    const baseUrl = { VIDROWS_BASE_URL: server.url };
    shell = new ShellSession(folder.path, readerEnvironment(baseUrl));
    let printed = "";
    for (const command of blocks.register.map(asTyped)) {
      const result = await shell.run(command, 60_000);
      expect(result.code, `${command}\n${result.output}`).toBe(0);
      printed = result.output;
    }
    const secret = /"secret":\s*"(whsec_[^"]+)"/.exec(printed)?.[1];
    expect(secret, printed).toBeDefined();

    // Still the second terminal: the receiver, with the key exported there and the secret pasted.
    receiver = await startInBackground(
      blocks.receiver.map((command) => asTyped(command).replaceAll("whsec_...", secret as string)),
      folder.path,
      readerEnvironment({ ...baseUrl, VIDROWS_API_KEY: server.key, RECEIVER_PORT: port }),
      (output) => output.includes(`Receiving webhooks at http://127.0.0.1:${port}/hooks`) || undefined,
      60_000,
    );

    // A delivery it cannot verify is refused: the receiver checks, it does not take everything.
    const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: "POST",
      headers: {
        "webhook-id": "msg_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,Zm9yZ2Vk",
      },
      body: JSON.stringify({ type: "job.completed", data: { job_id: "job_forged" } }),
    });
    expect(forged.status).toBe(400);

    const current = receiver;
    const rowsLine = await waitUntil(
      "the receiver to print the rows it took",
      () =>
        current
          .output()
          .split("\n")
          .find((line) => line.startsWith(`${video} `)),
      60_000,
    );
    const jobId = /submitted (job_\w+)/.exec(current.output())?.[1];
    expect(jobId, current.output()).toBeDefined();
    expect(current.output()).toContain(`verified job.completed ${jobId} done`);
    expect(current.output()).toContain("refused a delivery: bad_signature");
    expect(rowsLine).toContain(caption);

    // The third terminal: another job, submitted and waited for while the receiver runs.
    let otherJob: string | undefined;
    for (const command of blocks.submit.map(asTyped)) {
      const result = await shell.run(command, 60_000);
      expect(result.code, `${command}\n${result.output}`).toBe(0);
      otherJob ??= /"job_id":\s*"(job_\w+)"/.exec(result.output)?.[1];
    }
    expect(otherJob).toBeDefined();
    await waitUntil(
      "the receiver to leave the other job's rows",
      () => current.output().includes(`${otherJob} was not submitted by this receiver`) || undefined,
      60_000,
    );
    expect(current.output()).toContain(`verified job.completed ${otherJob} done`);
    expect(current.output()).not.toContain(`${otherVideo} `);
    // The rows are still there for the one who submitted the job.
    const taken = await shell.run(`npx vidrows-client jobs rows ${otherJob} --format jsonl`, 60_000);
    expect(taken.code, taken.output).toBe(0);
    expect(taken.output).toContain(`"video_id":"${otherVideo}"`);
    expect(taken.output).toContain(otherCaption);
  }, 300_000);
});
