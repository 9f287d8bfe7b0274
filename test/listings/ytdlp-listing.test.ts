// Reading yt-dlp's flat listings and its failures into the API's answers and errors, and one listing run
// cut short by its time limit; with the real yt-dlp installed, its acceptance of the listing's command line.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSubmittedVideo } from "../../src/domain/submitted-videos.js";
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
const readSubmittedVideoId = (url: string) => {
  const submitted = readSubmittedVideo(url, "any");
  return "videoId" in submitted ? submitted.videoId : null;
};

describe("A flat listing read into videos", () => {
  it("is the first `limit` videos, has_more when yt-dlp printed more", () => {
    const text = JSON.stringify(recordedListing("youtube-playlist.json"));
    const two = readListingOutput(text, 2);
    expect(two).toMatchObject({ kind: "listing", hasMore: true });
    if (two.kind === "listing")
      expect(two.videos.map((video) => video.video_id)).toEqual(["aaaaaaaaaa1", "aaaaaaaaaa2"]);
    expect(readListingOutput(text, 5)).toMatchObject({ kind: "listing", hasMore: false });
  });

  it("lists every episode of a podcast feed, those without an id named as a job will name their URL", () => {
    const read = readListingOutput(JSON.stringify(recordedListing("podcast-feed.json")), 10);
    expect(read).toMatchObject({ kind: "listing", hasMore: false });
    if (read.kind !== "listing") return;
    expect(read.videos).toEqual([
      {
        // yt-dlp's generic extractor names a media file after it, without its extension: the id the job
        // given this URL settles under.
        video_id: "generic:episode-12",
        url: "https://cdn.podcasts.example.org/kitchen/episode-12.mp3",
        title: "12: Bread without a mixer",
        duration_seconds: 1834,
      },
      {
        video_id: "generic:episode-11",
        url: "https://cdn.podcasts.example.org/kitchen/episode-11.mp3?source=rss",
        title: "11: Stock from scraps",
        duration_seconds: 1603,
      },
      {
        // A known platform's URL: the id the submission itself gives it.
        video_id: readSubmittedVideoId("https://vimeo.com/76979871"),
        url: "https://vimeo.com/76979871",
        title: "10: The video episode",
        duration_seconds: null,
      },
    ]);
    expect(read.videos[2]?.video_id).toBe("vimeo:76979871");
  });

  it("names the videos of a page of three <video>s as jobs name their files, not as parts of the page", () => {
    const read = readListingOutput(JSON.stringify(recordedListing("page-of-three-videos.json")), 10);
    expect(read).toMatchObject({ kind: "listing", hasMore: false });
    if (read.kind !== "listing") return;
    expect(read.videos.map((video) => [video.video_id, video.url])).toEqual([
      ["generic:one", "https://clips.example.net/one.mp4"],
      ["generic:two", "https://clips.example.net/two.mp4"],
      ["generic:three", "https://clips.example.net/three.mp4"],
    ]);
    expect(read.videos.every((video) => !video.video_id.startsWith("html5mediaembed:"))).toBe(true);
  });

  it("never says has_more for a page that lists nothing it could submit", () => {
    const tabs = JSON.stringify(recordedListing("youtube-channel-tabs.json"));
    expect(readListingOutput(tabs, 1)).toEqual({ kind: "listing", videos: [], hasMore: false });
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
      { ie_key: "Youtube", url: "http://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { url: "https://127.0.0.1/clip.mp4", title: "an address a job would refuse" },
      { ie_key: "Vimeo", id: "1", url: "http://vimeo.com/1" },
      { ie_key: "Vimeo", id: "1" },
    ]) {
      expect(listedVideo(entry), JSON.stringify(entry)).toBeNull();
    }
  });

  it("lists a feed's episode with a <guid> by its file, without the data yt-dlp smuggles into its URL", () => {
    // yt-dlp lists such an episode with the guid smuggled into the URL's fragment, which a job handed that
    // URL would be named by: the fragment is taken off, and the job names the episode by its file too.
    const smuggled =
      "#__youtubedl_smuggle=%7B%22force_videoid%22%3A+%22tag%3Apodcasts.example.org%2C12%22%7D";
    const url = "https://cdn.podcasts.example.org/kitchen/episode-12.mp3";
    const listed = listedVideo({ _type: "url_transparent", url: `${url}${smuggled}`, title: "12" });
    expect(listed).toMatchObject({ video_id: "generic:episode-12", url });
    const submitted = readSubmittedVideo(`${url}${smuggled}`, "any");
    expect(submitted).toMatchObject({ pageUrl: url });
    // An entry of its own id keeps it, its URL without the fragment too.
    expect(
      listedVideo({ ie_key: "Vimeo", id: "76979871", url: `https://vimeo.com/76979871${smuggled}` }),
    ).toMatchObject({
      video_id: "vimeo:76979871",
      url: "https://vimeo.com/76979871",
    });
  });

  it("lists an entry without an id under the id a job gives its URL", () => {
    expect(
      listedVideo({ ie_key: "Youtube", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" }),
    ).toMatchObject({
      video_id: "dQw4w9WgXcQ",
    });
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
        .list("ws_test", "https://www.youtube.com/@kitchenlab", 10)
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
      // Listings name https:// pages only: the same answer as from such a page, whose files jobs name.
      const asFromHttps = output.stdout.replaceAll(new URL(url).origin, "https://clips.example.net");
      const read = readListingOutput(asFromHttps, limit);
      expect(read).toMatchObject({ kind: "listing", hasMore });
      if (read.kind === "listing") {
        expect(read.videos.map((video) => video.video_id)).toEqual(
          ["generic:one", "generic:two", "generic:three"].slice(0, limit),
        );
      }
    }
  });
});
