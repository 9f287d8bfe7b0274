// POST /v1 with videos of other platforms, over HTTP: what each is listed as before a worker reads it, and
// what is refused (a known platform's page naming no video, http://, hostile strings), on a server that
// finds yt-dlp, one that does not, and one that reads the known platforms only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.js";
import { unresolvedVideoId } from "../../src/domain/submitted-videos.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { createFakePlatformYtDlp, type FakePlatformYtDlp } from "../support/fake-platform-ytdlp.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const schema = { columns: ["product", "price"] };
const model = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "unused", model: "unused" };

/** A server that accepts submissions (a model is named) and processes nothing (no worker). */
function submissionServer(dialect: "sqlite" | "postgres", config: Partial<Config>) {
  return startTestServer(dialect, { model, ...config }, { work: false });
}

async function refusal(server: TestServer, key: string, videos: unknown[]) {
  const answer = await server.call("POST", "/v1", { key, body: { videos, schema } });
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body.error.code).toBe("invalid_request");
  return answer.body.error as { param: string; message: string };
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `other platforms at submission on ${dialectTitle(dialect)}`,
    () => {
      let ytDlp: FakePlatformYtDlp;
      let server: TestServer;
      let key: string;

      beforeAll(async () => {
        ytDlp = createFakePlatformYtDlp();
        server = await submissionServer(dialect.name, { ytDlpPath: ytDlp.path, otherPlatforms: "any" });
        ({ key } = await server.workspace());
      });

      afterAll(async () => {
        await server?.close();
        ytDlp?.remove();
      });

      it("accepts them beside YouTube's, each listed by its video_id in order, found by prefix", async () => {
        const media = "https://media.example.org/talks/keynote.mp4";
        const submitted = await server.call("POST", "/v1", {
          key,
          body: {
            videos: [
              "aqz-KE-bpKQ",
              "https://vimeo.com/76979871",
              "https://www.tiktok.com/@scout2015/video/6718335390845095173",
              "https://x.com/NASA/status/1782080424153870437",
              "https://dai.ly/x7tgad0",
              media,
            ],
            schema,
          },
        });
        expect(submitted.status, submitted.text).toBe(202);
        expect(submitted.body.videos).toBe(6);
        const jobId = submitted.body.job_id as string;
        const listed = await server.call("GET", `/v1/${jobId}/videos`, { key });
        expect(listed.body.data.map((video: { video_id: string }) => video.video_id)).toEqual([
          "aqz-KE-bpKQ",
          "vimeo:76979871",
          "tiktok:6718335390845095173",
          "twitter:1782080424153870437",
          "dailymotion:x7tgad0",
          unresolvedVideoId(new URL(media)),
        ]);
        // The URL itself is never shown.
        expect(listed.text).not.toContain("media.example.org");
        for (const prefix of ["vimeo:", "tiktok:6718", "twitter:", "dailymotion:x7", "url:"]) {
          const found = await server.call("GET", `/v1?search=${encodeURIComponent(prefix)}`, { key });
          expect(found.status, found.text).toBe(200);
          expect(
            found.body.data.map((job: { job_id: string }) => job.job_id),
            prefix,
          ).toEqual([jobId]);
        }
        // Nothing was run at submission.
        expect(ytDlp.calls()).toEqual([]);
      });

      it("refuses a known platform's page that names no video, naming the element and the forms that do", async () => {
        const error = await refusal(server, key, [
          "https://vimeo.com/76979871",
          "https://www.tiktok.com/@scout2015",
        ]);
        expect(error.param).toBe("videos[1]");
        expect(error.message).toMatch(
          /^`videos\[1\]` is a TikTok page that names no video .*tiktok\.com\/@<user>\/video\/<id>/,
        );
      });

      it("refuses a video listed twice in two forms", async () => {
        const error = await refusal(server, key, [
          "https://vimeo.com/76979871",
          "https://player.vimeo.com/video/76979871",
        ]);
        expect(error.param).toBe("videos[1]");
        expect(error.message).toContain("same video as `videos[0]` (vimeo:76979871)");
      });

      const refused: [string, string, RegExp][] = [
        ["http://", "http://vimeo.com/76979871", /is an http:\/\/ URL; .*https:\/\//],
        ["a private address", "https://192.168.1.20/talk.mp4", /not a public domain name/],
        [
          "the cloud metadata address",
          "https://169.254.169.254/latest/meta-data",
          /not a public domain name/,
        ],
        ["localhost", "https://localhost/talk.mp4", /not a public domain name/],
        ["credentials", "https://me:pw@media.example.org/talk.mp4", /user name or password/],
        ["a javascript: URL", "javascript:alert(document.cookie)", /or the https:\/\/ URL of a video's page/],
        ["a file: URL", "file:///etc/passwd", /or the https:\/\/ URL of a video's page/],
        ["an option for yt-dlp", "--exec=/tmp/owned.sh", /or the https:\/\/ URL of a video's page/],
        ["a line break inside", "https://vimeo.com/7697\n9871", /has a line break \(LF\) at position 23/],
      ];
      for (const [title, reference, message] of refused) {
        it(`refuses ${title}, naming the element`, async () => {
          const error = await refusal(server, key, ["aqz-KE-bpKQ", reference]);
          expect(error.param).toBe("videos[1]");
          expect(error.message).toMatch(message);
        });
      }
    },
  );
}

describe.skipIf(dialects[0]?.skipReason !== null)("a server without yt-dlp", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await submissionServer("sqlite", { ytDlpPath: "/nonexistent/yt-dlp", otherPlatforms: "any" });
    ({ key } = await server.workspace());
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a known platform's video and any other page, saying what it would take", async () => {
    for (const reference of ["https://vimeo.com/76979871", "https://media.example.org/talks/keynote.mp4"]) {
      const error = await refusal(server, key, ["aqz-KE-bpKQ", reference]);
      expect(error.param).toBe("videos[1]");
      expect(error.message).toContain(
        "this server reads YouTube only (other platforms need yt-dlp on the server",
      );
    }
  });

  it("still takes YouTube", async () => {
    const answer = await server.call("POST", "/v1", { key, body: { videos: ["aqz-KE-bpKQ"], schema } });
    expect(answer.status).toBe(202);
  });
});

describe.skipIf(dialects[0]?.skipReason !== null)("VIDROWS_OTHER_PLATFORMS=known", () => {
  let ytDlp: FakePlatformYtDlp;
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    ytDlp = createFakePlatformYtDlp();
    server = await submissionServer("sqlite", { ytDlpPath: ytDlp.path, otherPlatforms: "known" });
    ({ key } = await server.workspace());
  });
  afterAll(async () => {
    await server?.close();
    ytDlp?.remove();
  });

  it("takes the known platforms' videos and refuses any other host, naming those it reads", async () => {
    const accepted = await server.call("POST", "/v1", {
      key,
      body: { videos: ["https://www.instagram.com/reel/C5nDq2Xr1aB/"], schema },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const error = await refusal(server, key, ["https://media.example.org/talks/keynote.mp4"]);
    expect(error.param).toBe("videos[0]");
    expect(error.message).toContain(
      "is on media.example.org, which this server does not read; it reads videos of YouTube, Vimeo",
    );
  });

  it("refuses a known platform's URL with a backslash, which yt-dlp would read as another host", async () => {
    const forms = [
      "https://x.com\\@127.0.0.1/status/1500000000000000000",
      "https://www.tiktok.com\\@10.0.0.1/@u/video/6718335390845095173",
      "https://www.instagram.com\\@169.254.169.254/reel/C5nDq2Xr1aB/",
      "https://www.facebook.com\\@[::1]/watch/?v=123456789",
    ];
    const calls = ytDlp.calls().length;
    for (const form of forms) {
      const error = await refusal(server, key, [form]);
      expect(error.param, form).toBe("videos[0]");
      expect(error.message, form).toContain("`videos[0]` holds a backslash");
    }
    expect(ytDlp.calls()).toHaveLength(calls);
  });
});
