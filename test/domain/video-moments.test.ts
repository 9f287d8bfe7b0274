// The address that opens a video at a moment, per platform: YouTube's t=, Vimeo's #t=, Dailymotion's
// ?start=, a media file's #t=; the plain page where the platform has no such link.
import { describe, expect, it } from "vitest";
import { videoIdOfRead } from "../../src/domain/platform-video-ids.js";
import { canonicalPageUrl, videoUrlAt } from "../../src/domain/video-moments.js";

describe("videoUrlAt", () => {
  it("opens a YouTube video with t=, whatever page is given", () => {
    expect(videoUrlAt("aqz-KE-bpKQ", undefined, 65.9)).toBe(
      "https://www.youtube.com/watch?v=aqz-KE-bpKQ&t=65s",
    );
  });

  it("opens a Vimeo video with #t=<n>s on the page yt-dlp read, replacing a fragment it had", () => {
    expect(videoUrlAt("vimeo:76979871", "https://vimeo.com/76979871", 83.4)).toBe(
      "https://vimeo.com/76979871#t=83s",
    );
    expect(videoUrlAt("vimeo:76979871", "https://vimeo.com/76979871/8a2b0c1d3e#t=2s", 9)).toBe(
      "https://vimeo.com/76979871/8a2b0c1d3e#t=9s",
    );
  });

  it("opens a Dailymotion video with ?start=, keeping the page's other parameters", () => {
    expect(
      videoUrlAt("dailymotion:x7tgad0", "https://www.dailymotion.com/video/x7tgad0?playlist=x6h", 121),
    ).toBe("https://www.dailymotion.com/video/x7tgad0?playlist=x6h&start=121");
  });

  it("opens a media file read by the generic extractor with the #t= media fragment", () => {
    expect(videoUrlAt("generic:keynote", "https://media.example.org/talks/keynote.mp4", 42.2)).toBe(
      "https://media.example.org/talks/keynote.mp4#t=42",
    );
  });

  it("gives the plain page where the platform has no link to a moment", () => {
    const pages: [string, string][] = [
      ["tiktok:6718335390845095173", "https://www.tiktok.com/@scout2015/video/6718335390845095173"],
      ["twitter:1782080424153870437", "https://x.com/NASA/status/1782080424153870437"],
      ["instagram:C5nDq2Xr1aB", "https://www.instagram.com/reel/C5nDq2Xr1aB/"],
      ["facebook:1092853391463474", "https://www.facebook.com/watch/?v=1092853391463474"],
      ["generic:talk", "https://media.example.org/talks/talk.html"],
      ["twitch:v2134567890", "https://www.twitch.tv/videos/2134567890"],
    ];
    for (const [videoId, page] of pages) expect(videoUrlAt(videoId, page, 30)).toBe(page);
  });

  it("falls back to the platform's usual page for the id when no page was kept", () => {
    expect(videoUrlAt("vimeo:76979871", undefined, 5)).toBe("https://vimeo.com/76979871#t=5s");
    expect(videoUrlAt("dailymotion:x7tgad0", undefined, 5)).toBe(
      "https://www.dailymotion.com/video/x7tgad0?start=5",
    );
    expect(canonicalPageUrl("twitter", "1782080424153870437")).toBe(
      "https://x.com/i/status/1782080424153870437",
    );
    expect(canonicalPageUrl("generic", "talk")).toBeNull();
  });
});

describe("videoIdOfRead", () => {
  it("names what yt-dlp read by its extractor, YouTube by the bare id", () => {
    expect(videoIdOfRead("Vimeo", "76979871")).toBe("vimeo:76979871");
    expect(videoIdOfRead("Youtube", "aqz-KE-bpKQ")).toBe("aqz-KE-bpKQ");
  });

  it("percent-encodes an id holding spaces or other characters, and gives up on one too long", () => {
    expect(videoIdOfRead("Generic", "My Talk (2024)")).toBe("generic:My%20Talk%20(2024)");
    expect(videoIdOfRead("Generic", "Grüße")).toBe("generic:Gr%C3%BC%C3%9Fe");
    expect(videoIdOfRead("Generic", "x".repeat(201))).toBeNull();
  });
});
