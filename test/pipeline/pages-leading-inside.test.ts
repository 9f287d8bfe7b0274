// Issue 35 end to end: a real `vidrows serve`, its worker and the real yt-dlp, given pages on a public-looking
// name that lead inside the server's network. The page server is this machine on an address of its own,
// opened by VIDROWS_EGRESS_ALLOW for that address alone; the canary, on 127.0.0.1, is not. A page
// redirecting inside (by literal address, by a name resolving there, in IPv4-mapped form, to an open port
// or a closed one), and a page whose media leads inside when the audio is downloaded for transcription,
// each fail video_unavailable in one message that names the video's current id and no network error (so
// no port map), uncharged; the model and the transcription endpoint hear nothing, nor does the canary. A
// listing of such a page is a 400 naming `from`.
//
// The names resolve through a hosts file of the test's own (private-hosts.ts); the page server speaks
// HTTPS on port 443, since submitted pages are https:// without a port, with the test certificate, which
// yt-dlp is told not to check through its own configuration file. Without yt-dlp on PATH, or without the
// right to make a mount namespace, the tests are skipped and say why.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedAddressMessage } from "../../src/platforms/egress/egress-guard.js";
import { locateProgram } from "../../src/platforms/executables.js";
import { closedOrigin } from "../captions/local-servers.js";
import { type Canary, startCanary } from "../platforms/egress/canary.js";
import { dialects, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { type FakeModel, rowsReply, startFakeModel } from "../support/fake-model.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
} from "../support/fake-transcription.js";
import { type PrivateHosts, privateHosts, privateHostsUnavailable } from "../support/private-hosts.js";
import { killAllChildren, type ServerProcess, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

const ytDlp = locateProgram("yt-dlp", undefined);
const skipReason =
  ytDlp === null
    ? "no yt-dlp on PATH (apt-get install yt-dlp)"
    : (dialects[0]?.skipReason ?? privateHostsUnavailable());
if (skipReason !== null) console.warn(`test/pipeline/pages-leading-inside.test.ts: skipped, ${skipReason}.`);

const pageHost = "video.example.com";
/** A public-looking name the hosts file points at loopback, where the canary listens. */
const insideHost = "inside.example.com";

/** A loopback address of the page server's own (not 127.0.0.1, the canary's), free at port 443. */
async function listenOnOwnAddress(server: Server): Promise<string> {
  for (let tried = 0; tried < 8; tried++) {
    const address = `127.35.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(443, address, () => resolve(true));
    });
    if (listening) return address;
  }
  throw new Error("no loopback address with port 443 free for the page server");
}

const html = (body: string) => ({
  status: 200,
  headers: { "content-type": "text/html" },
  body: `<!doctype html><html><head><title>A talk</title></head><body>${body}</body></html>`,
});

/** A podcast feed as hosts write them: one episode with a <guid> (which yt-dlp smuggles into its URL), one without. */
const feed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>The Kitchen Podcast</title><link>https://${pageHost}/</link><description>Recipes.</description>
<item><title>12: Bread without a mixer</title><guid isPermaLink="false">tag:${pageHost},2026:12</guid>
<enclosure url="https://${pageHost}/episodes/episode-12.mp3" type="audio/mpeg" length="1000"/>
<itunes:duration>30:34</itunes:duration></item>
<item><title>11: Stock from scraps</title>
<enclosure url="https://${pageHost}/episodes/episode-11.mp3?source=rss" type="audio/mpeg" length="1000"/>
</item></channel></rss>`;

describe.skipIf(skipReason !== null)("pages that lead inside, through a served process", () => {
  let canary: Canary;
  let closedPort: string;
  let pages: Server;
  let pageAddress: string;
  /** Every path the page server was asked for. */
  const asked: string[] = [];
  let hosts: PrivateHosts;
  let configHome: string;
  let database: FreshDatabase;
  let model: FakeModel;
  let transcription: FakeTranscription;
  let server: ServerProcess;
  let key: string;

  /** Where each page leads; the canary's address in the forms a page may write it. */
  function answer(path: string): { status: number; headers?: Record<string, string>; body?: string } {
    const redirects: Record<string, [number, string]> = {
      "/moved/301": [301, `http://127.0.0.1:${canary.port}/secret`],
      "/moved/302": [302, `http://${insideHost}:${canary.port}/secret`],
      "/moved/307": [307, `http://[::ffff:127.0.0.1]:${canary.port}/secret`],
      "/moved/closed": [302, `http://127.0.0.1:${closedPort}/secret`],
      "/list/moved": [302, `http://127.0.0.1:${canary.port}/playlist`],
      "/media/talk.mp4": [302, `http://127.0.0.1:${canary.port}/talk.mp4`],
    };
    const inside = redirects[path];
    if (inside !== undefined) return { status: inside[0], headers: { location: inside[1] } };
    if (path === "/talk") {
      return html(`<video controls><source src="/media/talk.mp4" type="video/mp4"></video>`);
    }
    if (path === "/talk-inside") {
      return html(`<video controls src="http://127.0.0.1:${canary.port}/talk-inside.mp4"></video>`);
    }
    // Pages that lead nowhere inside: three videos on one page, a podcast feed, and their media files.
    if (path === "/three") {
      return html(["one", "two", "three"].map((name) => `<video src="/clips/${name}.mp4"></video>`).join(""));
    }
    if (path === "/feed.xml")
      return { status: 200, headers: { "content-type": "application/rss+xml" }, body: feed };
    if (/^\/(clips|episodes)\/[a-z0-9-]+\.(mp4|mp3)$/.test(path)) {
      const type = path.endsWith(".mp3") ? "audio/mpeg" : "video/mp4";
      return { status: 200, headers: { "content-type": type }, body: "not really media" };
    }
    return { status: 404, body: "no such page" };
  }

  beforeAll(async () => {
    canary = await startCanary();
    closedPort = new URL(await closedOrigin()).port;
    pages = createServer(
      {
        cert: readFileSync(new URL("../fixtures/tls/cert.pem", import.meta.url)),
        key: readFileSync(new URL("../fixtures/tls/key.pem", import.meta.url)),
      },
      (request, response) => {
        const path = new URL(request.url ?? "/", "https://page").pathname;
        asked.push(path);
        const { status, headers, body } = answer(path);
        response.writeHead(status, headers).end(body ?? "");
      },
    );
    pageAddress = await listenOnOwnAddress(pages);
    hosts = privateHosts({ [pageHost]: pageAddress, [insideHost]: "127.0.0.1" });
    // yt-dlp's own configuration (read from XDG_CONFIG_HOME, which its environment keeps): the test
    // certificate names localhost only.
    configHome = mkdtempSync(join(tmpdir(), "vidrows-ytdlp-config-"));
    mkdirSync(join(configHome, "yt-dlp"));
    writeFileSync(join(configHome, "yt-dlp", "config"), "--no-check-certificates\n");
    model = await startFakeModel({ respond: () => rowsReply([{ product: "anything", price: 1 }]) });
    transcription = await startFakeTranscription(() => verboseReply([[0, 5, "Anything at all."]]));
    database = await freshDatabase("sqlite");
    server = await startServerProcess({
      databaseUrl: database.url,
      withWorker: true,
      launcher: hosts.launcher,
      env: {
        XDG_CONFIG_HOME: configHome,
        VIDROWS_YTDLP_PATH: ytDlp ?? "",
        VIDROWS_EGRESS_ALLOW: `${pageAddress}/32`,
        VIDROWS_LLM_BASE_URL: model.url,
        VIDROWS_LLM_API_KEY: "x",
        VIDROWS_LLM_MODEL: "fake-model",
        VIDROWS_TRANSCRIBE_BASE_URL: transcription.url,
        VIDROWS_TRANSCRIBE_API_KEY: "stt-key",
      },
    });
    const printed = server.printedKey();
    if (printed === null) throw new Error(`no key printed:\n${server.stdout()}`);
    key = printed;
  });

  afterAll(async () => {
    await killAllChildren();
    await canary?.close();
    pages?.closeAllConnections();
    await new Promise<void>((resolve) => (pages ? pages.close(() => resolve()) : resolve()));
    await model?.close();
    await transcription?.close();
    await database?.drop();
    hosts?.remove();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  /** Submits `videos` and answers each video's result once every one has settled. */
  async function settledResults(videos: string[], extra: Record<string, unknown> = {}) {
    const submitted = await call(server.url, "POST", "/v1", {
      key,
      body: { videos, schema: { columns: ["product", "price"] }, ...extra },
    });
    expect(submitted.status, submitted.text).toBe(202);
    const jobId = submitted.body.job_id as string;
    await waitUntil(
      `job ${jobId} to settle`,
      async () => {
        const list = await call(server.url, "GET", `/v1/${jobId}/videos`, { key });
        const statuses = (list.body.data as { status: string }[]).map((video) => video.status);
        return statuses.every((status) => !["queued", "processing"].includes(status)) || undefined;
      },
      workWaitMs,
    );
    const job = await call(server.url, "GET", `/v1/${jobId}`, { key });
    expect(job.status, job.text).toBe(200);
    return job.body.results as {
      video_id: string;
      status: string;
      error?: { code: string; message: string; retryable: boolean };
      credits_charged: number;
    }[];
  }

  /** The one message of a video its page led inside: its current id, and nothing of where or how. */
  const refused = (videoId: string) => `For ${videoId}, ${refusedAddressMessage}.`;

  it("fails a page that redirects inside video_unavailable, the same words for an open port and a closed one", async () => {
    const paths = ["/moved/301", "/moved/302", "/moved/307", "/moved/closed"];
    const results = await settledResults(paths.map((path) => `https://${pageHost}${path}`));
    for (const [i, result] of results.entries()) {
      expect(result, paths[i]).toMatchObject({
        status: "failed",
        error: { code: "video_unavailable", retryable: false, message: refused(result.video_id) },
        credits_charged: 0,
      });
    }
    // The page server, opened by VIDROWS_EGRESS_ALLOW, was reached: the refusal is of the redirect.
    for (const path of paths) expect(asked).toContain(path);
    expect(canary.hits).toEqual([]);
    expect(canary.connections).toEqual([]);
    expect(model.requests).toEqual([]);
    expect(transcription.uploads).toEqual([]);
  });

  it('fails a page whose media leads inside when its audio is downloaded (transcribe: "always"), naming it by its read id', async () => {
    const paths = ["/talk", "/talk-inside"];
    const results = await settledResults(
      paths.map((path) => `https://${pageHost}${path}`),
      { transcribe: "always" },
    );
    for (const [i, result] of results.entries()) {
      // The page itself was read: the video goes by the id yt-dlp gave it (no longer url:<digest>), and its
      // message names it so.
      expect(result.video_id, paths[i]).toMatch(/^(?!url:)[a-z0-9]+:/);
      expect(result, paths[i]).toMatchObject({
        status: "failed",
        error: { code: "video_unavailable", retryable: false, message: refused(result.video_id) },
        credits_charged: 0,
      });
    }
    expect(asked).toContain("/media/talk.mp4");
    expect(canary.hits).toEqual([]);
    expect(canary.connections).toEqual([]);
    expect(model.requests).toEqual([]);
    expect(transcription.uploads).toEqual([]);
  });

  it("lists a page of three videos and a podcast feed under the ids their jobs then give", async () => {
    const expected: Record<string, string[]> = {
      "/three": ["generic:one", "generic:two", "generic:three"],
      "/feed.xml": ["generic:episode-12", "generic:episode-11"],
    };
    for (const [path, ids] of Object.entries(expected)) {
      const from = `https://${pageHost}${path}`;
      const listing = await call(server.url, "GET", `/v1/videos?from=${encodeURIComponent(from)}&limit=10`, {
        key,
      });
      expect(listing.status, listing.text).toBe(200);
      const listed = listing.body.data as { video_id: string; url: string }[];
      expect(
        listed.map((video) => video.video_id),
        path,
      ).toEqual(ids);
      expect(listing.body.has_more, path).toBe(false);
      // Each listed URL given to a job: read by yt-dlp, named as listed, and told of by that name.
      const results = await settledResults(
        listed.map((video) => video.url),
        { transcribe: "never" },
      );
      expect(
        results.map((result) => result.video_id),
        path,
      ).toEqual(ids);
      for (const result of results) {
        expect(result, path).toMatchObject({
          status: "failed",
          error: { code: "no_captions", message: `${result.video_id} has no captions.` },
          credits_charged: 0,
        });
      }
    }
    expect(canary.hits).toEqual([]);
  });

  it("answers a listing of a page that redirects inside with a 400 naming from", async () => {
    const from = `https://${pageHost}/list/moved`;
    const listing = await call(server.url, "GET", `/v1/videos?from=${encodeURIComponent(from)}&limit=5`, {
      key,
    });
    expect(listing.status, listing.text).toBe(400);
    expect(listing.body.error).toMatchObject({
      code: "invalid_request",
      param: "from",
      message: `\`from\`: ${refusedAddressMessage}.`,
    });
    expect(asked).toContain("/list/moved");
    expect(canary.hits).toEqual([]);
    expect(canary.connections).toEqual([]);
  });
});
