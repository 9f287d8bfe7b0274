// The client's listing of playlists and channels against the real server (SQLite and PostgreSQL) and a fake
// yt-dlp answering recorded listings: `vr.videos.list`, `jobs submit --from` submitting exactly what was
// listed, and `--transcribe` reaching the job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Vidrows } from "../src/index.js";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { acceptingJobs } from "../../../test/support/endpoints.js";
import {
  createFakeListingYtDlp,
  type FakeListingYtDlp,
  recordedListing,
} from "../../../test/support/fake-listing-ytdlp.js";
import { startTestServer, type TestServer } from "../../../test/support/test-server.js";
import { printed, runCli } from "./cli-support.js";

const playlistPage = "https://www.youtube.com/playlist?list=PLkitchenLabBreadBasics01";
const channelTab = "https://www.youtube.com/@kitchenlab/videos";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `listing playlists from the client on ${dialectTitle(dialect)}`,
    () => {
      let ytDlp: FakeListingYtDlp;
      let server: TestServer;
      beforeAll(async () => {
        ytDlp = createFakeListingYtDlp();
        ytDlp.script({
          [playlistPage]: { listing: recordedListing("youtube-playlist.json") },
          [channelTab]: { listing: recordedListing("youtube-channel-videos.json") },
          "https://www.youtube.com/@empty/videos": {
            listing: { ...recordedListing("youtube-channel-videos.json"), entries: [] },
          },
          "https://www.youtube.com/@nobody/videos": {
            stderr: "ERROR: [youtube:tab] @nobody: Unable to download API page: HTTP Error 404: Not Found\n",
            exitCode: 1,
          },
        });
        server = await startTestServer(
          dialect.name,
          {
            ...acceptingJobs.config,
            ytDlpPath: ytDlp.path,
            otherPlatforms: "any",
            // Configured so that `always` is accepted; no worker runs, so it is never called.
            transcription: {
              baseUrl: "http://127.0.0.1:9/v1",
              apiKey: "never-used",
              model: "whisper-1",
              maxUploadBytes: 25_000_000,
              requestTimeoutSeconds: 5,
            },
          },
          acceptingJobs.app,
        );
      });
      afterAll(async () => {
        await server?.close();
        ytDlp?.remove();
      });

      const cli = (key: string, argv: string[]) => runCli(server.url, key, argv);
      const videoIdsOf = async (key: string, jobId: string) =>
        (await server.call("GET", `/v1/${jobId}/videos`, { key })).body.data.map(
          (video: any) => video.video_id,
        );
      const storedTranscribe = async (jobId: string) =>
        (
          await server.app.store.db
            .selectFrom("jobs")
            .select("transcribe")
            .where("id", "=", jobId)
            .executeTakeFirstOrThrow()
        ).transcribe;

      it("lists through vr.videos.list, with has_more", async () => {
        const { key } = await server.workspace();
        const vr = new Vidrows({ apiKey: key, baseUrl: server.url });
        const listing = await vr.videos.list({ from: "https://www.youtube.com/@kitchenlab", limit: 2 });
        expect(listing.has_more).toBe(true);
        expect(listing.data).toEqual([
          {
            video_id: "chanvideo01",
            url: "https://www.youtube.com/watch?v=chanvideo01",
            title: "Kitchen Lab episode 39",
            duration_seconds: null,
          },
          {
            video_id: "chanvideo02",
            url: "https://www.youtube.com/watch?v=chanvideo02",
            title: "Kitchen Lab episode 38",
            duration_seconds: 374,
          },
        ]);
        const missing = await vr.videos.list({ from: "https://www.youtube.com/@nobody" }).catch((e) => e);
        expect(missing.code).toBe("listing_not_found");
        expect(missing.status).toBe(404);
      });

      it("jobs submit --from submits exactly the videos listed, saying how many and that there are more", async () => {
        const { key } = await server.workspace();
        const run = await cli(key, [
          "jobs",
          "submit",
          "--from",
          "https://www.youtube.com/@kitchenlab",
          "--limit",
          "3",
          "--columns",
          "dish,minutes",
          "--transcribe",
          "never",
        ]);
        const created = printed(run);
        expect(created.videos).toBe(3);
        expect(run.stderr).toContain("Listed 3 videos from https://www.youtube.com/@kitchenlab");
        expect(run.stderr).toContain("raise --limit");
        expect(await videoIdsOf(key, created.job_id)).toEqual(["chanvideo01", "chanvideo02", "chanvideo03"]);
        expect(await storedTranscribe(created.job_id)).toBe("never");
        expect(ytDlp.calls().at(-1)).toEqual(expect.arrayContaining(["--playlist-end", "4", channelTab]));
      });

      it("adds named videos before the listed ones, and lists the default 100 without --limit", async () => {
        const { key } = await server.workspace();
        const run = await cli(key, [
          "jobs",
          "submit",
          "dQw4w9WgXcQ",
          "--from",
          playlistPage,
          "--columns",
          "step",
          "--transcribe",
          "always",
        ]);
        const created = printed(run);
        expect(run.stderr).toBe(`Listed 5 videos from ${playlistPage}.\n`);
        expect(await videoIdsOf(key, created.job_id)).toEqual([
          "dQw4w9WgXcQ",
          "aaaaaaaaaa1",
          "aaaaaaaaaa2",
          "aaaaaaaaaa3",
          "aaaaaaaaaa4",
          "aaaaaaaaaa5",
        ]);
        expect(await storedTranscribe(created.job_id)).toBe("always");
      });

      it("refuses bad combinations before asking the server, and an empty or missing listing", async () => {
        const { key } = await server.workspace();
        const calls = ytDlp.calls().length;
        const cases: [string[], RegExp][] = [
          [["jobs", "submit", "--columns", "a"], /videos to submit, or --from/],
          [["jobs", "submit", "dQw4w9WgXcQ", "--limit", "5", "--columns", "a"], /--limit goes with --from/],
          [["jobs", "submit", "--from", playlistPage, "--limit", "0", "--columns", "a"], /--limit must be/],
          [
            ["jobs", "submit", "--from", playlistPage, "--limit", "1001", "--columns", "a"],
            /--limit must be/,
          ],
          [
            ["jobs", "submit", "dQw4w9WgXcQ", "--transcribe", "sometimes", "--columns", "a"],
            /--transcribe must/,
          ],
          [["jobs", "submit", "--from", playlistPage], /exactly one of --columns/],
        ];
        for (const [argv, message] of cases) {
          const run = await cli(key, argv);
          expect(run.code, argv.join(" ")).toBe(2);
          expect(run.stderr, argv.join(" ")).toMatch(message);
        }
        expect(ytDlp.calls().length).toBe(calls);

        const empty = await cli(key, [
          "jobs",
          "submit",
          "--from",
          "https://www.youtube.com/@empty",
          "--columns",
          "a",
        ]);
        expect(empty.code).toBe(2);
        expect(empty.stderr).toContain("lists no videos");
        const missing = await cli(key, [
          "jobs",
          "submit",
          "--from",
          "https://www.youtube.com/@nobody",
          "--columns",
          "a",
        ]);
        expect(missing.code).not.toBe(0);
        expect(missing.stderr).toContain("listing_not_found");
        const jobs = await server.call("GET", "/v1", { key });
        expect(jobs.body.data).toEqual([]);
      });
    },
  );
}
