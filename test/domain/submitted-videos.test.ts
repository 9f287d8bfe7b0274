// Reading a submitted video of another platform: the video_id each known platform's URL forms give, the
// pages of those platforms that name no video, other hosts (read by yt-dlp later), and what is refused.
import { describe, expect, it } from "vitest";
import { readSubmittedVideo, unresolvedVideoId } from "../../src/domain/submitted-videos.js";
import { ApiError } from "../../src/http/api-errors.js";
import { readVideoReferences } from "../../src/jobs/job-submission.js";

const videoIdOf = (reference: string, otherPlatforms: "off" | "known" | "any" = "any") => {
  const read = readSubmittedVideo(reference, otherPlatforms);
  return "videoId" in read ? read.videoId : null;
};
const refusalOf = (reference: string, otherPlatforms: "off" | "known" | "any" = "any") => {
  const read = readSubmittedVideo(reference, otherPlatforms);
  return "refusal" in read ? read.refusal : null;
};

describe("a known platform's video URL gives <platform>:<id> at submission", () => {
  const cases: [string, string][] = [
    ["https://vimeo.com/76979871", "vimeo:76979871"],
    ["https://www.vimeo.com/76979871?share=copy", "vimeo:76979871"],
    ["https://vimeo.com/76979871/8a2b0c1d3e", "vimeo:76979871"],
    ["https://vimeo.com/channels/staffpicks/76979871", "vimeo:76979871"],
    ["https://vimeo.com/groups/motion/videos/76979871", "vimeo:76979871"],
    ["https://vimeo.com/showcase/9876543/video/76979871", "vimeo:76979871"],
    ["https://player.vimeo.com/video/76979871?h=abc", "vimeo:76979871"],
    ["https://www.dailymotion.com/video/x7tgad0", "dailymotion:x7tgad0"],
    ["https://www.dailymotion.com/video/x7tgad0_the-title", "dailymotion:x7tgad0"],
    ["https://www.dailymotion.com/embed/video/x7tgad0", "dailymotion:x7tgad0"],
    ["https://dai.ly/x7tgad0", "dailymotion:x7tgad0"],
    ["https://geo.dailymotion.com/player.html?video=x7tgad0", "dailymotion:x7tgad0"],
    ["https://www.tiktok.com/@scout2015/video/6718335390845095173", "tiktok:6718335390845095173"],
    ["https://www.tiktok.com/@scout2015/video/6718335390845095173?lang=en", "tiktok:6718335390845095173"],
    ["https://www.tiktok.com/embed/v2/6718335390845095173", "tiktok:6718335390845095173"],
    ["https://m.tiktok.com/v/6718335390845095173.html", "tiktok:6718335390845095173"],
    ["https://x.com/NASA/status/1782080424153870437", "twitter:1782080424153870437"],
    ["https://twitter.com/NASA/status/1782080424153870437/video/1", "twitter:1782080424153870437"],
    ["https://mobile.twitter.com/i/status/1782080424153870437", "twitter:1782080424153870437"],
    ["https://www.instagram.com/p/C5nDq2Xr1aB/", "instagram:C5nDq2Xr1aB"],
    ["https://www.instagram.com/reel/C5nDq2Xr1aB/?igsh=x", "instagram:C5nDq2Xr1aB"],
    ["https://www.instagram.com/natgeo/reel/C5nDq2Xr1aB/", "instagram:C5nDq2Xr1aB"],
    ["https://www.facebook.com/watch/?v=1092853391463474", "facebook:1092853391463474"],
    ["https://www.facebook.com/NASA/videos/1092853391463474/", "facebook:1092853391463474"],
    ["https://www.facebook.com/NASA/videos/launch-day/1092853391463474/", "facebook:1092853391463474"],
    ["https://m.facebook.com/reel/1092853391463474", "facebook:1092853391463474"],
  ];
  for (const [reference, videoId] of cases) {
    it(reference, () => {
      expect(videoIdOf(reference)).toBe(videoId);
      expect(videoIdOf(reference, "known")).toBe(videoId);
    });
  }

  it("finds a video given in two forms listed twice, naming both elements", () => {
    try {
      readVideoReferences(["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"], "any");
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).param).toBe("videos[1]");
      expect((error as ApiError).message).toBe(
        "`videos[1]` is the same video as `videos[0]` (vimeo:76979871); list each video once.",
      );
    }
  });
});

describe("a known platform's page that names no video is refused, naming the forms that do", () => {
  const pages = [
    "https://vimeo.com/",
    "https://vimeo.com/staff",
    "https://vimeo.com/channels/staffpicks",
    "https://vimeo.com/showcase/9876543",
    "https://player.vimeo.com/",
    "https://www.dailymotion.com/",
    "https://www.dailymotion.com/playlist/x6hynp",
    "https://dai.ly/",
    "https://www.tiktok.com/@scout2015",
    "https://www.tiktok.com/@scout2015/video/not-digits",
    "https://x.com/NASA",
    "https://twitter.com/search?q=launch",
    "https://www.instagram.com/natgeo/",
    "https://www.instagram.com/explore/",
    "https://www.facebook.com/NASA",
    "https://www.facebook.com/watch/",
    "https://fb.watch/",
  ];
  for (const page of pages) {
    it(page, () => {
      const refusal = refusalOf(page);
      expect(refusal).toMatch(/^is a [A-Za-z() ]+ page that names no video .*; send a video's URL: /);
    });
  }

  it("says which forms of Vimeo do name a video", () => {
    expect(refusalOf("https://vimeo.com/staff")).toBe(
      "is a Vimeo page that names no video (a profile, a playlist or a search?); send a video's URL: vimeo.com/<id>, vimeo.com/<id>/<hash>, vimeo.com/channels/<name>/<id>, player.vimeo.com/video/<id>.",
    );
  });
});

describe("a page of another host, and a share link, get their video_id from yt-dlp when processed", () => {
  const pages = [
    "https://media.example.org/talks/keynote.mp4",
    "https://www.twitch.tv/videos/2134567890",
    "https://vm.tiktok.com/ZMhvqjqjq/",
    "https://www.tiktok.com/t/ZTRav7308/",
    "https://fb.watch/abcDEF123/",
    "https://www.facebook.com/share/v/1A2b3C4d5E/",
  ];
  for (const page of pages) {
    it(page, () => {
      const videoId = videoIdOf(page);
      expect(videoId).toBe(unresolvedVideoId(new URL(page)));
      expect(videoId).toMatch(/^url:[0-9a-f]{16}$/);
    });
  }

  it("gives the same URL the same id, and another URL another", () => {
    const a = videoIdOf("https://media.example.org/a.mp4");
    expect(videoIdOf("https://media.example.org/a.mp4")).toBe(a);
    expect(videoIdOf("https://media.example.org/b.mp4")).not.toBe(a);
  });

  it("refuses another host where the server reads only the known platforms, listing them", () => {
    expect(refusalOf("https://media.example.org/a.mp4", "known")).toBe(
      "is on media.example.org, which this server does not read; it reads videos of YouTube, Vimeo, Dailymotion, TikTok, X (Twitter), Instagram, Facebook.",
    );
    // A share link of a known platform is that platform's, so still read.
    expect(videoIdOf("https://fb.watch/abcDEF123/", "known")).toMatch(/^url:/);
  });
});

describe("refused whichever pages the server reads", () => {
  const cases: [string, string, RegExp][] = [
    ["http:// of a known platform", "http://vimeo.com/76979871", /^is an http:\/\/ URL; .*https:\/\//],
    ["http:// of another host", "http://media.example.org/a.mp4", /^is an http:\/\/ URL/],
    ["a URL without a scheme", "vimeo.com/76979871", /or the https:\/\/ URL of a video's page\.$/],
    ["another scheme", "ftp://media.example.org/a.mp4", /or the https:\/\/ URL of a video's page\.$/],
    ["a javascript: URL", "javascript:alert(1)", /or the https:\/\/ URL of a video's page\.$/],
    ["a data: URL", "data:text/html,<script>alert(1)</script>", /or the https:\/\/ URL/],
    ["a file: URL", "file:///etc/passwd", /or the https:\/\/ URL of a video's page\.$/],
    ["a loopback address", "https://127.0.0.1/a.mp4", /not a public domain name/],
    ["a private address", "https://10.0.0.8/a.mp4", /not a public domain name/],
    ["the metadata address", "https://169.254.169.254/latest/meta-data/", /not a public domain name/],
    ["an IPv6 address", "https://[::1]/a.mp4", /not a public domain name/],
    ["a decimal IPv4 address", "https://2130706433/a.mp4", /not a public domain name/],
    ["localhost", "https://localhost/a.mp4", /not a public domain name/],
    ["a one-word host", "https://intranet/a.mp4", /not a public domain name/],
    ["a .internal host", "https://media.corp.internal/a.mp4", /not a public domain name/],
    ["a user and password", "https://user:secret@media.example.org/a.mp4", /user name or password/],
    ["a port", "https://media.example.org:8443/a.mp4", /names a port/],
    [
      "a YouTube page that names no video",
      "https://www.youtube.com/@somechannel",
      /^is not a YouTube video URL/,
    ],
    ["a space inside", "https://vimeo.com/7697 9871", /^has a space at position 23; /],
    ["a zero-width space", "https://vimeo.com/76979871\u200b", /^has an invisible character \(U\+200B\)/],
  ];
  for (const [title, reference, refusal] of cases) {
    it(title, () => {
      expect(refusalOf(reference)).toMatch(refusal);
    });
  }
});

describe("a server that reads YouTube only", () => {
  it("refuses every other page, saying what it would take", () => {
    for (const reference of ["https://vimeo.com/76979871", "https://media.example.org/a.mp4"]) {
      expect(refusalOf(reference, "off")).toBe(
        "is not a YouTube video URL (watch?v=, youtu.be/, shorts/, embed/, live/) or an 11-character video id; this server reads YouTube only (other platforms need yt-dlp on the server, see docs/platforms.md).",
      );
    }
  });

  it("still reads YouTube", () => {
    expect(videoIdOf("https://youtu.be/aqz-KE-bpKQ", "off")).toBe("aqz-KE-bpKQ");
  });

  it("is what readVideoReferences assumes unless told", () => {
    expect(() => readVideoReferences(["https://vimeo.com/76979871"])).toThrow(ApiError);
  });
});

describe("one reading of a page's URL: what yt-dlp is handed is what was checked", () => {
  const pageUrlOf = (reference: string) => {
    const read = readSubmittedVideo(reference, "any");
    if ("refusal" in read) throw new Error(`${reference} refused: ${read.refusal}`);
    return read.pageUrl;
  };

  it("refuses a backslash, which parsers read as / or as part of the host", () => {
    for (const reference of [
      "https://x.com\\@127.0.0.1/status/1",
      "https://www.tiktok.com\\@10.0.0.1/@u/video/1",
      "https://example.com\\.evil/watch",
      "https://example.com/path\\to",
    ]) {
      const read = readSubmittedVideo(reference, "any");
      expect(read, reference).toEqual({ refusal: expect.stringContaining("backslash") });
      expect(readSubmittedVideo(reference, "known"), reference).toEqual({
        refusal: expect.stringContaining("backslash"),
      });
    }
  });

  it("reads a final dot as the same host, so a local name stays local", () => {
    for (const reference of [
      "https://localhost./video",
      "https://metadata.google.internal./computeMetadata/v1/",
      "https://printer.local./x",
      "https://kubernetes.default.svc/api",
      "https://kubernetes.default.svc./api",
      "https://api.default.svc.cluster.local/x",
      "https://box.localdomain/x",
      "https://intranet./x",
      "https://127.0.0.1./x",
    ]) {
      expect(readSubmittedVideo(reference, "any"), reference).toEqual({
        refusal: expect.stringContaining("not a public domain name"),
      });
    }
  });

  it("hands on a known platform's page rebuilt from its id", () => {
    expect(pageUrlOf("https://x.com/someone/status/1500000000000000000?s=20")).toBe(
      "https://twitter.com/i/status/1500000000000000000",
    );
    expect(pageUrlOf("https://www.tiktok.com/@someone/video/7106594312292453675?lang=en")).toBe(
      "https://www.tiktok.com/@_/video/7106594312292453675",
    );
    expect(pageUrlOf("https://player.vimeo.com/video/76979871?autoplay=1")).toBe(
      "https://vimeo.com/76979871",
    );
    expect(pageUrlOf("https://vimeo.com/76979871/1a2b3c4d5e")).toBe("https://vimeo.com/76979871/1a2b3c4d5e");
    expect(pageUrlOf("https://vimeo.com./76979871")).toBe("https://vimeo.com/76979871");
    expect(pageUrlOf("https://www.instagram.com/reel/CbGFdfXabcd/?igsh=x")).toBe(
      "https://www.instagram.com/p/CbGFdfXabcd/",
    );
    expect(pageUrlOf("https://m.facebook.com/reel/123456789")).toBe(
      "https://www.facebook.com/watch/?v=123456789",
    );
    expect(pageUrlOf("https://dai.ly/x7tgad0")).toBe("https://www.dailymotion.com/video/x7tgad0");
  });

  it("hands on any other page as the standard parser writes it out, host without its final dot", () => {
    expect(pageUrlOf("https://Example.COM./talks/1?q='a'")).toBe("https://example.com/talks/1?q=%27a%27");
    expect(pageUrlOf("https://vm.tiktok.com/ZMabc/")).toBe("https://vm.tiktok.com/ZMabc/");
  });

  it("never hands yt-dlp the data it reads from a fragment (__youtubedl_smuggle), and keeps other fragments", () => {
    const page = "https://media.example.org/talks/a.mp3";
    // Another id to name the video by, and headers to send, as yt-dlp writes them into a URL.
    for (const data of ['{"force_videoid": "secret-name"}', '{"http_headers": {"Cookie": "x=1"}}']) {
      const smuggled = `${page}#${new URLSearchParams({ __youtubedl_smuggle: data })}`;
      expect(readSubmittedVideo(smuggled, "any"), data).toEqual({
        videoId: unresolvedVideoId(new URL(page)),
        pageUrl: page,
      });
    }
    expect(pageUrlOf(`${page}#t=30`)).toBe(`${page}#t=30`);
  });

  it("keeps the handed address as the job's, never the string submitted", () => {
    expect(readSubmittedVideo("https://x.com/u/status/15", "any")).toEqual({
      videoId: "twitter:15",
      pageUrl: "https://twitter.com/i/status/15",
    });
  });
});
