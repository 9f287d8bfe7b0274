// `vidrows serve` as an operator starts it, VIDROWS_OTHER_PLATFORMS left at its default: with a yt-dlp it
// finds, a Vimeo URL is accepted; with none, it says so once at start-up and refuses the URL, naming what
// it would take.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialects, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { createFakePlatformYtDlp, type FakePlatformYtDlp } from "../support/fake-platform-ytdlp.js";
import { killAllChildren, type ServerProcess, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

const warning = "no yt-dlp was found (VIDROWS_YTDLP_PATH, else PATH): only YouTube videos are accepted";
const body = { videos: ["https://vimeo.com/76979871"], schema: { columns: ["product"] } };

describe.skipIf(dialects[0]?.skipReason !== null)("other platforms in a served process", () => {
  let ytDlp: FakePlatformYtDlp;
  const databases: FreshDatabase[] = [];
  const servers: ServerProcess[] = [];

  beforeAll(() => {
    ytDlp = createFakePlatformYtDlp();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  afterAll(async () => {
    await killAllChildren();
    await Promise.all(databases.map((database) => database.drop()));
    ytDlp?.remove();
  });

  async function serve(ytDlpPath: string): Promise<{ server: ServerProcess; key: string }> {
    const database = await freshDatabase("sqlite");
    databases.push(database);
    const server = await startServerProcess({
      databaseUrl: database.url,
      // A model is named so that submissions are read at all; no worker runs to ask it.
      env: { VIDROWS_YTDLP_PATH: ytDlpPath, VIDROWS_LLM_BASE_URL: "http://127.0.0.1:9/v1" },
    });
    servers.push(server);
    const key = server.printedKey();
    if (key === null) throw new Error(`no key printed:\n${server.stdout()}`);
    return { server, key };
  }

  it("accepts another platform's video where it finds yt-dlp, and says nothing of it", async () => {
    const { server, key } = await serve(ytDlp.path);
    const answer = await call(server.url, "POST", "/v1", { key, body });
    expect(answer.status, answer.text).toBe(202);
    expect(server.stdout()).not.toContain(warning);
  });

  it("warns at start-up without yt-dlp, and refuses the URL saying what it would take", async () => {
    const { server, key } = await serve("/nonexistent/yt-dlp");
    expect(server.stdout()).toContain(`VIDROWS_OTHER_PLATFORMS is any, but ${warning}`);
    const answer = await call(server.url, "POST", "/v1", { key, body });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.param).toBe("videos[0]");
    expect(answer.body.error.message).toContain(
      "this server reads YouTube only (other platforms need yt-dlp",
    );
  });
});
