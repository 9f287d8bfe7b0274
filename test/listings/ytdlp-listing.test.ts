// Reading yt-dlp's flat listings and its failures into the API's answers and errors, and one listing run
// cut short by its time limit; with the real yt-dlp installed, its acceptance of the listing's command line.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/api-errors.js";
import { listingRunError, listingRunFailure } from "../../src/listings/listing-failures.js";
import { VideoListings } from "../../src/listings/video-listings.js";
import { listedVideo, listingArguments, readListingOutput } from "../../src/listings/ytdlp-listing.js";
import { locateProgram } from "../../src/platforms/executables.js";
import {
  ProgramNotRunnable,
  ProgramStopped,
  type ProgramRun,
  runProgram,
} from "../../src/platforms/programs.js";
import { createFakeListingYtDlp, recordedListing } from "../support/fake-listing-ytdlp.js";

const codeOf = (error: unknown) => (error as ApiError).code;

describe("A flat listing read into videos", () => {
  it("is the first `limit` videos, has_more when yt-dlp printed more", () => {
    const text = JSON.stringify(recordedListing("youtube-playlist.json"));
    const two = readListingOutput(text, 2);
    expect(two).toMatchObject({ kind: "listing", hasMore: true });
    if (two.kind === "listing")
      expect(two.videos.map((video) => video.video_id)).toEqual(["aaaaaaaaaa1", "aaaaaaaaaa2"]);
    expect(readListingOutput(text, 5)).toMatchObject({ kind: "listing", hasMore: false });
  });

  it("tells one video and unreadable output apart from a listing", () => {
    expect(readListingOutput(JSON.stringify({ id: "76979871", title: "One" }), 10)).toEqual({
      kind: "one-video",
    });
    for (const text of ["", "not json", "[]", "null", JSON.stringify({ title: "no id" })]) {
      expect(readListingOutput(text, 10), text).toEqual({ kind: "unreadable" });
    }
  });

  it("leaves out entries that are not videos it could submit", () => {
    for (const entry of [
      null,
      "a string",
      {
        _type: "playlist",
        id: "PL1",
        ie_key: "YoutubeTab",
        url: "https://www.youtube.com/playlist?list=PL1",
      },
      { ie_key: "YoutubeTab", id: "UCx", url: "https://www.youtube.com/@x/videos" },
      { ie_key: "Youtube", id: "too-short", url: "https://www.youtube.com/watch?v=too-short" },
      { ie_key: "Youtube", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { ie_key: "Vimeo", id: "1", url: "http://vimeo.com/1" },
      { ie_key: "Vimeo", id: "1" },
    ]) {
      expect(listedVideo(entry), JSON.stringify(entry)).toBeNull();
    }
  });

  it("keeps a title to 1000 characters, a duration rounded, and no negative or non-number duration", () => {
    const long = listedVideo({
      ie_key: "Youtube",
      id: "dQw4w9WgXcQ",
      title: "t".repeat(5000),
      duration: 12.6,
    });
    expect(long?.title).toHaveLength(1000);
    expect(long?.duration_seconds).toBe(13);
    for (const duration of [-1, "60", Number.NaN, null]) {
      expect(listedVideo({ ie_key: "Youtube", id: "dQw4w9WgXcQ", duration })?.duration_seconds).toBeNull();
    }
    // No extractor named: the generic one, and the page address from webpage_url when url is not https.
    expect(
      listedVideo({ id: "clip-1", url: "clip-1.mp4", webpage_url: "https://example.com/clips#1", title: "" }),
    ).toEqual({
      video_id: "generic:clip-1",
      url: "https://example.com/clips#1",
      title: null,
      duration_seconds: null,
    });
  });
});

describe("yt-dlp's failures as the API's errors", () => {
  it("says an old yt-dlp is the operator's to update", () => {
    const error = listingRunFailure(
      2,
      "Usage: yt-dlp [OPTIONS] URL\n\nyt-dlp: error: no such option: --flat-playlist\n",
    );
    expect(codeOf(error)).toBe("listing_unavailable");
    expect(error.message).toContain("too old");
  });

  it("reads members-only and terminated channels as nothing there, anything unknown as the platform's", () => {
    expect(
      codeOf(
        listingRunFailure(
          1,
          "ERROR: [youtube:tab] PL1: Join this channel to get access to members-only content\n",
        ),
      ),
    ).toBe("listing_not_found");
    expect(codeOf(listingRunFailure(1, "ERROR: [youtube:tab] UC1: This account has been terminated\n"))).toBe(
      "listing_not_found",
    );
    expect(codeOf(listingRunFailure(1, "ERROR: [youtube:tab] PL1: KeyError('contents')\n"))).toBe(
      "platform_unavailable",
    );
    expect(codeOf(listingRunFailure(null, ""))).toBe("platform_unavailable");
  });

  it("maps a run that could not start or was stopped", () => {
    expect(codeOf(listingRunError(new ProgramNotRunnable("EACCES", "cannot run")))).toBe(
      "listing_unavailable",
    );
    expect(codeOf(listingRunError(new ProgramStopped("timeout", "did not finish within 1 s")))).toBe(
      "platform_unavailable",
    );
    const other = new Error("the caller's abort");
    expect(listingRunError(other)).toBe(other);
  });

  it("stops a listing past its time limit and answers platform_unavailable", async () => {
    const ytDlp = createFakeListingYtDlp();
    try {
      ytDlp.script({ "*": { hang: true } });
      const listings = new VideoListings({ ytDlpPath: ytDlp.path, timeoutSeconds: 1 });
      const failure = await listings
        .list("https://www.youtube.com/@kitchenlab", 10)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect(codeOf(failure)).toBe("platform_unavailable");
      expect((failure as ApiError).message).toContain("did not finish within 1 s");
    } finally {
      ytDlp.remove();
    }
  });
});

const executable = locateProgram("yt-dlp", undefined);
const runYtDlp = (run: Omit<ProgramRun, "program">) => runProgram({ program: "yt-dlp", ...run });
if (executable === null)
  console.warn("test/listings/ytdlp-listing.test.ts: the real yt-dlp part skipped, no yt-dlp on PATH.");

describe.skipIf(executable === null)("The real yt-dlp with the listing's command line", () => {
  let page: Server;
  let url: string;
  beforeAll(async () => {
    // A page of three clips: yt-dlp's generic extractor reads it as a playlist of three.
    page = createServer((_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end(
        `<html><head><title>Clips</title></head><body>${["one", "two", "three"]
          .map((name) => `<video controls><source src="/${name}.mp4" type="video/mp4"></video>`)
          .join("")}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/clips.html`;
  });
  afterAll(async () => {
    await new Promise((resolve) => page?.close(resolve));
  });

  it("accepts it, and stops one entry past the limit, which is has_more", async () => {
    for (const [limit, printed, hasMore] of [
      [1, 2, true],
      [3, 3, false],
    ] as const) {
      const output = await runYtDlp({
        executable: executable as string,
        args: listingArguments(url, limit),
        timeoutMs: 30_000,
      });
      expect(output.exitCode, output.stderr).toBe(0);
      const info = JSON.parse(output.stdout);
      expect(info._type).toBe("playlist");
      expect(info.entries).toHaveLength(printed);
      expect(readListingOutput(output.stdout, limit)).toMatchObject({ kind: "listing", hasMore });
    }
  });
});
