// Reading a page of another platform through yt-dlp (a fake printing recorded-shape output): who the video
// is, its captions or why there are none, a page of several videos, what each failure becomes, and a run
// abandoned mid-read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlatformError } from "../../src/platforms/platform-error.js";
import { YtDlpPageSource } from "../../src/captions/ytdlp-page-source.js";
import {
  createFakePlatformYtDlp,
  type FakePlatformYtDlp,
  recordedPage,
} from "../support/fake-platform-ytdlp.js";
import { waitUntil } from "../support/waiting.js";

const vimeoUrl = "https://vimeo.com/76979871";
const tiktokUrl = "https://www.tiktok.com/@scout2015/video/6718335390845095173";
const postUrl = "https://x.com/NASA/status/1782080424153870437";

describe("YtDlpPageSource", () => {
  let ytDlp: FakePlatformYtDlp;
  let source: YtDlpPageSource;
  const failingPage = (status: number, text: string) => ({
    info: {},
    stderr: `ERROR: [generic] Unable to download webpage: HTTP Error ${status}: ${text} (caused by <HTTPError ${status}: ${text}>)\n`,
    exitCode: 1,
  });

  beforeAll(() => {
    ytDlp = createFakePlatformYtDlp();
    const vimeo = recordedPage("vimeo-76979871.info.json", { en: "vimeo-76979871.en.vtt" });
    const tiktok = recordedPage("tiktok-6718335390845095173.info.json");
    ytDlp.setPages({
      [vimeoUrl]: vimeo,
      [tiktokUrl]: tiktok,
      // A post with two videos, printed as a playlist of them.
      [postUrl]: {
        info: {
          _type: "playlist",
          id: "1782080424153870437",
          extractor_key: "Twitter",
          entries: [
            { ...tiktok.info, id: "1782080424153870437_1", extractor_key: "Twitter", webpage_url: postUrl },
            { ...tiktok.info, id: "1782080424153870437_2", extractor_key: "Twitter", webpage_url: postUrl },
          ],
        },
      },
      "https://media.example.org/gone.mp4": failingPage(404, "Not Found"),
      "https://media.example.org/busy.mp4": failingPage(429, "Too Many Requests"),
      "https://media.example.org/odd": { info: { title: "no id here" } },
      "https://media.example.org/stalled": { info: {}, hang: true },
      // A page of embeds, none of them a video yt-dlp could read.
      "https://media.example.org/gallery": {
        info: { _type: "playlist", id: "gallery", extractor_key: "Generic", entries: [] },
      },
    });
    source = new YtDlpPageSource({ executable: ytDlp.path });
  });

  afterAll(() => ytDlp?.remove());

  it("names the video and reads the chosen track", async () => {
    const read = await source.read(vimeoUrl, "vimeo:76979871", { language: "en" });
    expect(read).toMatchObject({ extractorKey: "Vimeo", id: "76979871", pageUrl: vimeoUrl });
    expect(read.transcript?.durationSeconds).toBe(62);
    expect(read.transcript?.language).toBe("en");
    expect(read.transcript?.cues[2]).toEqual({
      startMs: 14_250,
      endMs: 21_000,
      text: "Our studio tour starts with the red camera crane, rented for forty dollars a day.",
    });
    // The page after `--`, never where yt-dlp would read an option.
    const infoRun = ytDlp.calls().find((args) => args.at(-1) === vimeoUrl) ?? [];
    expect(infoRun.at(-2)).toBe("--");
  });

  it("says a page without captions has none, still naming the video", async () => {
    const read = await source.read(tiktokUrl, "tiktok:6718335390845095173");
    expect(read).toMatchObject({ extractorKey: "TikTok", id: "6718335390845095173", transcript: null });
    expect(read.noCaptions("tiktok:6718335390845095173")).toBe("tiktok:6718335390845095173 has no captions.");
  });

  it("reads the first video of a page holding several", async () => {
    const read = await source.read(postUrl, "twitter:1782080424153870437");
    expect(read).toMatchObject({ extractorKey: "Twitter", id: "1782080424153870437_1", pageUrl: postUrl });
  });

  const failures: [string, string, string, boolean][] = [
    ["an unsupported page", "https://media.example.org/about", "video_unavailable", false],
    ["a page answering 404", "https://media.example.org/gone.mp4", "video_unavailable", false],
    ["a page answering 429", "https://media.example.org/busy.mp4", "captions_unavailable", true],
    ["info without an id", "https://media.example.org/odd", "captions_unavailable", true],
    ["a page of no videos", "https://media.example.org/gallery", "video_unavailable", false],
  ];
  for (const [title, url, code, retryable] of failures) {
    it(`fails ${title} with ${code}`, async () => {
      const failure = await source.read(url, "url:0123456789abcdef").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PlatformError);
      expect((failure as PlatformError).code).toBe(code);
      expect((failure as PlatformError).retryable).toBe(retryable);
    });
  }

  it("stops reading a page when the video is abandoned, ending the run", async () => {
    const url = "https://media.example.org/stalled";
    const controller = new AbortController();
    const reading = source
      .read(url, "url:stalled", { signal: controller.signal })
      .catch((error: unknown) => error);
    await waitUntil(
      "yt-dlp to be asked about the page",
      () => ytDlp.calls().some((args) => args.at(-1) === url),
      10_000,
    );
    const reason = new Error("job cancelled");
    controller.abort(reason);
    expect(await reading).toBe(reason);
  });
});
