import { describe, expect, it } from "vitest";
import { readListingSource } from "../../src/domain/listing-sources.js";

const read = (from: string, otherPlatforms: "any" | "known" | "off" = "any") =>
  readListingSource(from, otherPlatforms);
const urlOf = (from: string) => {
  const reading = read(from);
  if (!reading.ok) throw new Error(`${from} refused: ${reading.problem}`);
  return reading.source;
};

describe("The `from` of a listing", () => {
  it("reads a YouTube playlist from its page or a watch URL with list=, as the playlist page", () => {
    const page = "https://www.youtube.com/playlist?list=PLkitchenLabBreadBasics01";
    for (const from of [
      page,
      "https://youtube.com/playlist?list=PLkitchenLabBreadBasics01&si=abc",
      "https://m.youtube.com/playlist?list=PLkitchenLabBreadBasics01",
      "youtube.com/playlist?list=PLkitchenLabBreadBasics01",
      "http://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLkitchenLabBreadBasics01&index=3",
      "https://music.youtube.com/playlist?list=PLkitchenLabBreadBasics01",
      "https://youtu.be/dQw4w9WgXcQ?list=PLkitchenLabBreadBasics01&si=x",
    ]) {
      expect(urlOf(from), from).toEqual({ kind: "youtube-playlist", url: page });
    }
  });

  it("reads every form of channel, with its tab, the Videos tab when none is named", () => {
    const cases: [string, string][] = [
      ["https://www.youtube.com/@kitchenlab", "https://www.youtube.com/@kitchenlab/videos"],
      ["https://www.youtube.com/@kitchenlab/", "https://www.youtube.com/@kitchenlab/videos"],
      ["https://www.youtube.com/@kitchenlab/featured", "https://www.youtube.com/@kitchenlab/videos"],
      ["https://www.youtube.com/@kitchenlab/shorts", "https://www.youtube.com/@kitchenlab/shorts"],
      ["https://m.youtube.com/@kitchenlab/streams?app=m", "https://www.youtube.com/@kitchenlab/streams"],
      [
        "https://www.youtube.com/channel/UCkitchenLab0000000000AB/videos",
        "https://www.youtube.com/channel/UCkitchenLab0000000000AB/videos",
      ],
      ["https://www.youtube.com/c/KitchenLab", "https://www.youtube.com/c/KitchenLab/videos"],
      ["https://www.youtube.com/user/kitchenlab/shorts", "https://www.youtube.com/user/kitchenlab/shorts"],
      ["https://www.youtube.com/@K%C3%BCche", "https://www.youtube.com/@K%C3%BCche/videos"],
    ];
    for (const [from, url] of cases) expect(urlOf(from), from).toEqual({ kind: "youtube-channel", url });
  });

  it("takes another platform's https page as it is, for yt-dlp to read", () => {
    expect(urlOf("https://vimeo.com/showcase/1234567")).toEqual({
      kind: "other",
      url: "https://vimeo.com/showcase/1234567",
    });
  });

  it("refuses single videos, other YouTube pages and tabs that hold no videos, saying why", () => {
    const cases: [string, RegExp][] = [
      ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", /one video/],
      ["https://youtu.be/dQw4w9WgXcQ", /one video/],
      ["https://www.youtube.com/shorts/dQw4w9WgXcQ", /one video/],
      ["https://www.youtube.com/playlist", /no `list=`/],
      ["https://www.youtube.com/playlist?list=a/b", /not a playlist id/],
      ["https://www.youtube.com/@kitchenlab/playlists", /"playlists" tab/],
      ["https://www.youtube.com/@kitchenlab/community", /"community" tab/],
      ["https://www.youtube.com/@kitchenlab/videos/extra", /more after/],
      ["https://www.youtube.com/channel/UCshort", /not a YouTube playlist or channel/],
      ["https://www.youtube.com/feed/subscriptions", /not a YouTube playlist or channel/],
    ];
    for (const [from, problem] of cases) {
      const reading = read(from);
      expect(reading.ok, from).toBe(false);
      if (!reading.ok) expect(reading.problem, from).toMatch(problem);
    }
  });

  it("refuses hostile values: other schemes, non-URLs, local addresses, credentials, invisible characters", () => {
    const cases: [string, RegExp][] = [
      ["http://vimeo.com/showcase/1", /https/],
      ["ftp://vimeo.com/showcase/1", /https/],
      ["file:///etc/passwd", /https/],
      ["javascript:alert(1)", /https/],
      ["not a url", /a space/],
      ["playlists", /not a URL/],
      ["https://127.0.0.1/list", /not a public domain name/],
      ["https://[::1]/list", /not a public domain name/],
      ["https://2130706433/list", /not a public domain name/],
      ["https://localhost/list", /not a public domain name/],
      ["https://intranet/list", /not a public domain name/],
      ["https://printer.local/list", /not a public domain name/],
      ["https://metadata.google.internal/list", /not a public domain name/],
      ["https://user:secret@vimeo.com/showcase/1", /user name or password/],
      ["https://vimeo.com/showcase/1\u0007", /U\+0007/],
      ["https://www.youtube.com/@kitchenlab\n", /line break/],
      ["\u200bhttps://www.youtube.com/@kitchenlab", /U\+200B/],
    ];
    for (const [from, problem] of cases) {
      const reading = read(from);
      expect(reading.ok, JSON.stringify(from)).toBe(false);
      if (!reading.ok) expect(reading.problem, JSON.stringify(from)).toMatch(problem);
    }
  });

  it("lists other platforms only as VIDROWS_OTHER_PLATFORMS lets a job be given their pages", () => {
    const showcase = "https://vimeo.com/showcase/1234567";
    expect(read(showcase, "known").ok).toBe(true);
    const unknown = read("https://clips.example.com/playlist/7", "known");
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.problem).toMatch(/does not read; it reads YouTube, Vimeo/);
    const off = read(showcase, "off");
    expect(off.ok).toBe(false);
    if (!off.ok) expect(off.problem).toMatch(/YouTube only/);
    // YouTube is listed whatever the setting.
    expect(read("https://www.youtube.com/@kitchenlab", "off").ok).toBe(true);
    expect(read("https://vimeo.com:8443/showcase/1").ok).toBe(false);
  });
});

describe("one reading of `from`", () => {
  it("refuses a backslash, and reads a final dot as the same host", () => {
    expect(readListingSource("https://x.com\\@127.0.0.1/i/lists/1", "any")).toEqual({
      ok: false,
      problem: expect.stringContaining("backslash"),
    });
    for (const from of [
      "https://localhost./feed",
      "https://kubernetes.default.svc./feed",
      "https://a.cluster.local/x",
    ]) {
      expect(readListingSource(from, "any"), from).toEqual({
        ok: false,
        problem: expect.stringContaining("not a public domain name"),
      });
    }
    expect(readListingSource("https://www.youtube.com./@handle", "any")).toEqual({
      ok: true,
      source: { kind: "youtube-channel", url: "https://www.youtube.com/@handle/videos" },
    });
    expect(readListingSource("https://podcasts.example.org./feed.xml", "any")).toEqual({
      ok: true,
      source: { kind: "other", url: "https://podcasts.example.org/feed.xml" },
    });
  });

  it("hands yt-dlp no data smuggled in the fragment", () => {
    const smuggled = `#${new URLSearchParams({ __youtubedl_smuggle: '{"force_videoid": "x"}' })}`;
    expect(readListingSource(`https://podcasts.example.org/feed.xml${smuggled}`, "any")).toEqual({
      ok: true,
      source: { kind: "other", url: "https://podcasts.example.org/feed.xml" },
    });
  });
});
