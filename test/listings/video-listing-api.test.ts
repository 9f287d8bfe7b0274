// GET /v1/videos over HTTP on both databases, through a fake yt-dlp answering recorded listings: the
// playlist's and channel's videos, paging by `limit` and `has_more`, each refusal with its code, and the
// yt-dlp run stopped when the client goes away.
import { guardProxy, recordExits } from "../support/egress-exits.js";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { processIsGone } from "../captions/fake-ytdlp.js";
import { dialects, dialectTitle } from "../support/databases.js";
import {
  createFakeListingYtDlp,
  type FakeListingYtDlp,
  recordedListing,
} from "../support/fake-listing-ytdlp.js";
import { checkerFor, type OpenApiChecker } from "../support/openapi-checker.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { waitUntil } from "../support/waiting.js";

const playlistPage = "https://www.youtube.com/playlist?list=PLkitchenLabBreadBasics01";
const channelTab = "https://www.youtube.com/@kitchenlab/videos";
const showcase = "https://vimeo.com/showcase/1234567";

const listPath = (from: string, limit?: number | string) =>
  `/v1/videos?from=${encodeURIComponent(from)}${limit === undefined ? "" : `&limit=${limit}`}`;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`GET /v1/videos on ${dialectTitle(dialect)}`, () => {
    let ytDlp: FakeListingYtDlp;
    let server: TestServer;
    let checker: OpenApiChecker;
    let exits: (string | undefined)[];
    let key: string;
    beforeAll(async () => {
      ytDlp = createFakeListingYtDlp();
      server = await startTestServer(
        dialect.name,
        {
          ytDlpPath: ytDlp.path,
          otherPlatforms: "any",
          youtubeProxies: ["http://proxy-a.test:8080", "http://proxy-b.test:8080"],
        },
        { work: false },
      );
      exits = recordExits(server.app.platformAccess);
      checker = checkerFor((await server.call("GET", "/v1/openapi.json")).body);
      key = (await server.workspace()).key;
    });
    afterAll(async () => {
      await server?.close();
      ytDlp?.remove();
    });
    beforeEach(() => {
      ytDlp.script({
        [playlistPage]: { listing: recordedListing("youtube-playlist.json") },
        [channelTab]: { listing: recordedListing("youtube-channel-videos.json") },
        [showcase]: { listing: recordedListing("vimeo-showcase.json") },
      });
    });

    const list = (from: string, limit?: number | string) =>
      server.call("GET", listPath(from, limit), { key });

    it("lists a playlist's videos in its order, as documented, creating nothing", async () => {
      const answer = await list("https://www.youtube.com/watch?v=aaaaaaaaaa2&list=PLkitchenLabBreadBasics01");
      expect(answer.status, answer.text).toBe(200);
      expect(checker.problems("GET", "/v1/videos", answer)).toEqual([]);
      expect(answer.body).toEqual({
        data: [
          {
            video_id: "aaaaaaaaaa1",
            url: "https://www.youtube.com/watch?v=aaaaaaaaaa1",
            title: "Flour, water, salt: the first loaf",
            duration_seconds: 612,
          },
          {
            video_id: "aaaaaaaaaa2",
            url: "https://www.youtube.com/watch?v=aaaaaaaaaa2",
            title: "Kneading by hand or by machine",
            duration_seconds: 905,
          },
          {
            video_id: "aaaaaaaaaa3",
            url: "https://www.youtube.com/watch?v=aaaaaaaaaa3",
            title: "[Private video]",
            duration_seconds: null,
          },
          {
            video_id: "aaaaaaaaaa4",
            url: "https://www.youtube.com/watch?v=aaaaaaaaaa4",
            title: "Sourdough starter, day by day",
            duration_seconds: 1337,
          },
          {
            video_id: "aaaaaaaaaa5",
            url: "https://www.youtube.com/watch?v=aaaaaaaaaa5",
            title: "Scoring and baking: steam, heat, time",
            duration_seconds: 721,
          },
        ],
        has_more: false,
      });
      expect(answer.headers.get("ratelimit-limit")).not.toBeNull();
      // yt-dlp was asked for the playlist page itself, flat, one past the default limit of 100.
      const args = ytDlp.calls().at(-1) ?? [];
      // Through the egress guard (its own loopback proxy, in the environment), with the listing's arguments.
      expect(ytDlp.proxies().at(-1)).toMatch(guardProxy);
      expect(args).not.toContain("--proxy");
      expect(args.slice(0, 4)).toEqual(["--flat-playlist", "--dump-single-json", "--playlist-end", "101"]);
      expect(args.slice(-2)).toEqual(["--", playlistPage]);
      const jobs = await server.call("GET", "/v1", { key });
      expect(jobs.body.data).toEqual([]);
    });

    it("pages by limit: the first videos and has_more while the listing holds more", async () => {
      const two = await list(playlistPage, 2);
      expect(two.status, two.text).toBe(200);
      expect(two.body.data.map((video: any) => video.video_id)).toEqual(["aaaaaaaaaa1", "aaaaaaaaaa2"]);
      expect(two.body.has_more).toBe(true);
      expect(ytDlp.calls().at(-1)).toContain("3");

      const exact = await list(playlistPage, 5);
      expect(exact.body.data).toHaveLength(5);
      expect(exact.body.has_more).toBe(false);

      const one = await list(playlistPage, 1);
      expect(one.body.data).toHaveLength(1);
      expect(one.body.has_more).toBe(true);
    });

    it("lists a channel's Videos tab from its handle, a live stream's duration null", async () => {
      const answer = await list("https://www.youtube.com/@kitchenlab", 3);
      expect(answer.status, answer.text).toBe(200);
      expect(ytDlp.calls().at(-1)?.at(-1)).toBe(channelTab);
      expect(answer.body).toEqual({
        data: [
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
          {
            video_id: "chanvideo03",
            url: "https://www.youtube.com/watch?v=chanvideo03",
            title: "Kitchen Lab episode 37",
            duration_seconds: 418,
          },
        ],
        has_more: true,
      });
    });

    it("lists another platform's playlist with <platform>:<id> ids, leaving out nested listings", async () => {
      const answer = await list(showcase);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({
        data: [
          {
            video_id: "vimeo:76979871",
            url: "https://vimeo.com/76979871",
            title: "The New Vimeo Player (You Know, For Videos)",
            duration_seconds: 62,
          },
          {
            video_id: "vimeo:22439234",
            url: "https://vimeo.com/22439234",
            title: "The Mountain",
            duration_seconds: 191,
          },
        ],
        has_more: false,
      });
    });

    it("takes the proxies of VIDROWS_YOUTUBE_PROXY in turn, one per listing", async () => {
      await list(playlistPage, 1);
      await list(playlistPage, 1);
      expect(new Set(exits.slice(-2))).toEqual(
        new Set(["http://proxy-a.test:8080", "http://proxy-b.test:8080"]),
      );
    });

    it("answers 400 naming the parameter for a bad from or limit, without running yt-dlp", async () => {
      const before = ytDlp.calls().length;
      const cases: [string, string][] = [
        ["/v1/videos", "from"],
        ["/v1/videos?from=", "from"],
        [listPath(playlistPage, 0), "limit"],
        [listPath(playlistPage, 1001), "limit"],
        [listPath(playlistPage, "ten"), "limit"],
        [listPath(playlistPage, "1.5"), "limit"],
        [listPath("http://vimeo.com/showcase/1"), "from"],
        [listPath("file:///etc/passwd"), "from"],
        [listPath("javascript:alert(1)"), "from"],
        [listPath("not a url"), "from"],
        [listPath("https://127.0.0.1:8080/admin"), "from"],
        [listPath("https://localhost/playlist"), "from"],
        [listPath(`https://vimeo.com/showcase/${"9".repeat(3000)}`), "from"],
        [listPath("https://vimeo.com/showcase/1\u0000"), "from"],
        [listPath("https://www.youtube.com/@kitchenlab\r\n"), "from"],
        [listPath("https://www.youtube.com/watch?v=aaaaaaaaaa1"), "from"],
        [`${listPath(playlistPage)}&offset=2`, "offset"],
      ];
      for (const [path, param] of cases) {
        const answer = await server.call("GET", path, { key });
        expect(answer.status, `${path}: ${answer.text}`).toBe(400);
        expect(answer.body.error.code).toBe("invalid_request");
        expect(answer.body.error.param, path).toBe(param);
        expect(answer.body.error.message.length).toBeGreaterThan(20);
      }
      expect(ytDlp.calls().length).toBe(before);
    });

    it("needs a key", async () => {
      const answer = await server.call("GET", listPath(playlistPage));
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
    });

    it("answers 404 listing_not_found for a playlist or channel that is missing, private or has no such tab", async () => {
      const missing = [
        "ERROR: [youtube:tab] PLgone: YouTube said: The playlist does not exist.",
        "ERROR: [youtube:tab] PLsecret: YouTube said: This playlist is private.",
        "ERROR: [youtube:tab] @nobody: Unable to download API page: HTTP Error 404: Not Found (caused by <HTTPError 404: Not Found>)",
        "ERROR: [youtube:tab] @kitchenlab: This channel does not have a streams tab",
        "ERROR: [youtube:tab] UCkitchenLab0000000000AB: This channel does not exist.",
      ];
      for (const line of missing) {
        ytDlp.script({ "*": { stderr: `${line}\n`, exitCode: 1 } });
        const answer = await list("https://www.youtube.com/@kitchenlab/streams");
        expect(answer.status, line).toBe(404);
        expect(answer.body.error.code).toBe("listing_not_found");
        expect(answer.body.error.param).toBe("from");
        expect(checker.problems("GET", "/v1/videos", answer)).toEqual([]);
      }
    });

    it("answers 503 platform_unavailable with Retry-After when the platform refuses or does not answer", async () => {
      const refusals = [
        "ERROR: [youtube:tab] PLkitchenLabBreadBasics01: Sign in to confirm you’re not a bot. Use --cookies-from-browser or --cookies for the authentication.",
        "ERROR: [youtube:tab] PLkitchenLabBreadBasics01: Unable to download API page: HTTP Error 429: Too Many Requests",
        "ERROR: [youtube:tab] PLkitchenLabBreadBasics01: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution>",
      ];
      for (const line of refusals) {
        ytDlp.script({ "*": { stderr: `${line}\n`, exitCode: 1 } });
        const answer = await list(playlistPage);
        expect(answer.status, line).toBe(503);
        expect(answer.body.error.code).toBe("platform_unavailable");
        expect(answer.headers.get("retry-after")).toBe("30");
        expect(answer.body.error.message).toMatch(/try again/);
        expect(checker.problems("GET", "/v1/videos", answer)).toEqual([]);
      }
    });

    it("answers 400 for a page yt-dlp cannot read as a listing, or reads as one video", async () => {
      ytDlp.script({
        "https://example.com/not-a-playlist": {
          stderr: "ERROR: Unsupported URL: https://example.com/not-a-playlist\n",
          exitCode: 1,
        },
        "https://vimeo.com/76979871": {
          listing: { _type: "video", id: "76979871", title: "The New Vimeo Player", duration: 62 },
        },
      });
      for (const from of ["https://example.com/not-a-playlist", "https://vimeo.com/76979871"]) {
        const answer = await list(from);
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.error.param).toBe("from");
      }
    });

    it("answers an empty playlist with no videos", async () => {
      ytDlp.script({ "*": { listing: { ...recordedListing("youtube-playlist.json"), entries: [] } } });
      const answer = await list(playlistPage);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ data: [], has_more: false });
    });

    it("stops yt-dlp when the client goes away before the listing is ready", async () => {
      ytDlp.script({ "*": { hang: true } });
      const { hostname, port } = new URL(server.url);
      const socket = await new Promise<Socket>((resolve, reject) => {
        const opened = connect({ host: hostname, port: Number(port) }, () => resolve(opened));
        opened.once("error", reject);
      });
      socket.on("error", () => {});
      socket.write(
        `GET ${listPath(playlistPage)} HTTP/1.1\r\nHost: ${server.url.slice("http://".length)}\r\n` +
          `Authorization: Bearer ${key}\r\n\r\n`,
      );
      const pid = await waitUntil(
        "the listing's yt-dlp to start",
        () => ytDlp.hungPid() ?? undefined,
        10_000,
      );
      socket.resetAndDestroy();
      await waitUntil("the listing's yt-dlp to be killed", () => processIsGone(pid), 10_000);
    });
  });
}

describe("GET /v1/videos on a server without yt-dlp", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { ytDlpPath: "/nonexistent/yt-dlp" }, { work: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers 503 listing_unavailable naming what the operator installs or sets", async () => {
    const { key } = await server.workspace();
    const answer = await server.call("GET", listPath(playlistPage), { key });
    expect(answer.status, answer.text).toBe(503);
    expect(answer.body.error.code).toBe("listing_unavailable");
    expect(answer.body.error.message).toContain("VIDROWS_YTDLP_PATH");
    expect(answer.body.error.message).not.toContain("/nonexistent");
    // A bad `from` is still the caller's to fix first.
    const bad = await server.call("GET", listPath("ftp://example.com/list"), { key });
    expect(bad.status).toBe(400);
  });
});
