// A served process's listing slots (`GET /v1/videos`) shared between workspaces, in a `vidrows serve`
// process on each database with 2 slots and a queue of 2 per workspace: one workspace's slow listings
// fill the slots and its queue, another's one listing takes the next slot that frees, the first's
// listings past its queue answer 429 with Retry-After, and a client that goes away while queued frees
// its place. The order is read from the fake yt-dlp's runs, never from timing.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import {
  createFakeListingYtDlp,
  type FakeListingYtDlp,
  type ListingScenario,
  recordedListing,
} from "../support/fake-listing-ytdlp.js";
import { killAllChildren, runCli, type ServerProcess, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

const playlistOf = (name: string) => `https://www.youtube.com/playlist?list=PLfairshare${name}`;
const listPath = (name: string) => `/v1/videos?from=${encodeURIComponent(playlistOf(name))}&limit=2`;
const names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1"];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `a served process's listing slots shared between workspaces on ${dialectTitle(dialect)}`,
    () => {
      let ytDlp: FakeListingYtDlp;
      let database: FreshDatabase;
      let server: ServerProcess;
      let keyA: string;
      let keyB: string;
      beforeAll(async () => {
        ytDlp = createFakeListingYtDlp();
        // Every listing of workspace a answers only once released; b's answers at once.
        const scenarios: Record<string, ListingScenario> = {};
        for (const name of names) {
          scenarios[playlistOf(name)] = {
            listing: recordedListing("youtube-playlist.json"),
            ...(name.startsWith("a") ? { heldUntil: name } : {}),
          };
        }
        ytDlp.script(scenarios);
        database = await freshDatabase(dialect.name);
        const workspace = async (name: string) => {
          const created = await runCli(["workspace", "create", "--name", name, "--plan", "scale", "--json"], {
            DATABASE_URL: database.url,
          });
          expect(created.code, created.stderr).toBe(0);
          return (JSON.parse(created.stdout) as { api_key: string }).api_key;
        };
        keyA = await workspace("slow-listings");
        keyB = await workspace("one-listing");
        server = await startServerProcess({
          databaseUrl: database.url,
          env: {
            VIDROWS_YTDLP_PATH: ytDlp.path,
            VIDROWS_LISTING_SLOTS: "2",
            VIDROWS_LISTING_QUEUE: "2",
            // The queue's comings and goings are logged at debug level.
            LOG_LEVEL: "debug",
          },
        });
      });
      afterAll(async () => {
        for (const name of names) ytDlp?.release(name);
        await server?.stop();
        await killAllChildren();
        await database?.drop();
        ytDlp?.remove();
      });

      /** The names of the listings yt-dlp was run for, in the order the runs started. */
      const started = () => ytDlp.calls().map((args) => (args.at(-1) ?? "").slice(playlistOf("").length));
      /** How many of the server's log lines say `message`. */
      const logged = (message: string) =>
        server
          .stdout()
          .split("\n")
          .filter((line) => line.includes(`"msg":"${message}"`)).length;
      const queued = () => logged("listing waits for a slot behind other listings");
      const list = (key: string, name: string) => call(server.url, "GET", listPath(name), { key });

      /** A listing asked over a socket of its own, which the test closes while it waits. */
      async function listOnSocket(key: string, name: string): Promise<Socket> {
        const { hostname, port } = new URL(server.url);
        const socket = await new Promise<Socket>((resolve, reject) => {
          const opened = connect({ host: hostname, port: Number(port) }, () => resolve(opened));
          opened.once("error", reject);
        });
        socket.on("error", () => {});
        socket.write(
          `GET ${listPath(name)} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n\r\n`,
        );
        return socket;
      }

      it("serves the other workspace next, refuses past the queue with 429, and frees a deserted place", async () => {
        // a's first two take both slots; its next two wait.
        const a1 = list(keyA, "a1");
        const a2 = list(keyA, "a2");
        await waitUntil("a's first two listings to run", () => started().length === 2, workWaitMs);
        const a3 = list(keyA, "a3");
        await waitUntil("a's third listing to wait", () => queued() === 1, workWaitMs);
        const a4 = list(keyA, "a4");
        await waitUntil("a's fourth listing to wait", () => queued() === 2, workWaitMs);

        // A third waiting listing of a is refused, in the API's error shape, with when to try again.
        const refused = await list(keyA, "a5");
        expect(refused.status, refused.text).toBe(429);
        expect(refused.headers.get("retry-after")).toBe("10");
        expect(refused.body.error.code).toBe("rate_limited");
        expect(refused.body.error.message).toContain("2 listings waiting");
        expect(typeof refused.body.error.request_id).toBe("string");

        // b's one listing waits behind a's two, and takes the first slot that frees.
        const b1 = list(keyB, "b1");
        await waitUntil("b's listing to wait", () => queued() === 3, workWaitMs);
        ytDlp.release("a1");
        expect((await a1).status).toBe(200);
        const b = await b1;
        expect(b.status, b.text).toBe(200);
        expect(b.body.data).toHaveLength(2);
        // b's ran third, before a's two that were waiting before it; its slot then went back to a.
        await waitUntil("a's third listing to run", () => started().length === 4, workWaitMs);
        // (a1 and a2, asked together, start in either order.)
        expect(started().slice(0, 2).sort()).toEqual(["a1", "a2"]);
        expect(started().slice(2)).toEqual(["b1", "a3"]);

        // a has one waiting (a4) and one more place: a6 takes it, a7 is refused.
        const leaving = await listOnSocket(keyA, "a6");
        await waitUntil("a6 to wait", () => queued() === 4, workWaitMs);
        expect((await list(keyA, "a7")).status).toBe(429);
        // a6's client goes away: its place frees, so a8 waits instead of being refused.
        leaving.resetAndDestroy();
        await waitUntil(
          "a6 to leave the queue",
          () => logged("listing stopped: the client went away") === 1,
          workWaitMs,
        );
        const a8 = list(keyA, "a8");
        await waitUntil("a8 to wait", () => queued() === 5, workWaitMs);

        for (const name of ["a2", "a3", "a4", "a8"]) ytDlp.release(name);
        for (const answer of await Promise.all([a2, a3, a4, a8])) expect(answer.status).toBe(200);
        // a6, whose client went away, never ran; neither did the refused ones.
        // (a4 and a8 took the two slots a2 and a3 freed at once: in either order.)
        expect(started().slice(2, 4)).toEqual(["b1", "a3"]);
        expect(started().slice(4).sort()).toEqual(["a4", "a8"]);
      });
    },
  );
}
