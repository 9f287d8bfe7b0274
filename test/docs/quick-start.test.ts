// The README's quick start, run as written: its server block in one shell, its client block in another,
// through to rows printed. What differs from a reader's run is only what a test cannot have: the
// OpenAI key and endpoint (a fake model on a local port), the captions (a folder instead of YouTube), and
// the port (the server picks a free one, and the client is told where it is).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModel } from "../support/fake-model.js";
import { ShellSession } from "../support/shell-session.js";
import { markedCommands } from "./markdown.js";
import {
  checkoutFolder,
  readerEnvironment,
  requireCurrentBuild,
  repositoryRoot,
  startRowsModel,
  startServerCommands,
  type StartedServer,
} from "./reader-setup.js";

const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
const caption = "Never gonna give you up, never gonna let you down.";

/** The video id the client block submits: a bare id or a watch URL. */
function submittedVideo(commands: readonly string[]): string {
  const argument = commands.map((command) => /jobs submit (\S+)/.exec(command)?.[1]).find(Boolean);
  const id = argument?.match(/(?:v=)?([\w-]{11})\b/)?.[1];
  if (!id) throw new Error(`The quick start's client block submits no video id: ${commands.join(" / ")}`);
  return id;
}

describe("the README's quick start", () => {
  const serverCommands = markedCommands(readme, "README.md", "quick-start: server");
  const clientCommands = markedCommands(readme, "README.md", "quick-start: client");
  const folder = checkoutFolder();
  let model: FakeModel;
  let server: StartedServer | undefined;
  let shell: ShellSession | undefined;

  beforeAll(async () => {
    requireCurrentBuild();
    model = await startRowsModel();
  });

  afterAll(async () => {
    shell?.close();
    await server?.stop();
    await model?.close();
    folder.remove();
  });

  it("has a server block that sets a model key and starts the server, and a client block", () => {
    expect(serverCommands.some((command) => command.includes("sk-..."))).toBe(true);
    expect(serverCommands.at(-1)).toBe("npm start");
    expect(clientCommands.some((command) => command.includes("vr_live_..."))).toBe(true);
  });

  it("gets from a first start to rows printed", async () => {
    const video = submittedVideo(clientCommands);
    const captions = join(folder.path, "test-captions");
    mkdirSync(captions);
    writeFileSync(join(captions, `${video}.vtt`), `WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n${caption}\n`);

    // The reader's OpenAI key is the fake model's; the model and the captions are the test's.
    const modelKey = "sk-quick-start-test";
    server = await startServerCommands(
      serverCommands.map((command) => command.replaceAll("sk-...", modelKey)),
      folder.path,
      readerEnvironment({ VIDROWS_LLM_BASE_URL: model.url, VIDROWS_CAPTIONS: `dir:${captions}`, PORT: "0" }),
      150_000,
    );

    shell = new ShellSession(folder.path, readerEnvironment({ VIDROWS_BASE_URL: server.url }));
    let last = "";
    for (const typed of clientCommands) {
      // What a reader pastes in place of the placeholders: the key printed, the job id printed.
      const jobId = /"job_id":\s*"(job_\w+)"/.exec(last)?.[1];
      const command = typed.replaceAll("vr_live_...", server.key).replaceAll("job_...", jobId ?? "job_...");
      const result = await shell.run(command, 60_000);
      expect(result.code, `${command}\n${result.output}\nserver:\n${server.output()}`).toBe(0);
      last = result.output;
    }

    expect(model.requestCount).toBeGreaterThan(0);
    expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${modelKey}`);
    // The last command printed the rows: the video's row, drawn from its captions.
    expect(last).toContain(video);
    expect(last).toContain(caption);
  }, 240_000);
});
