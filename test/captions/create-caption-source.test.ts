// Reading VIDROWS_CAPTIONS, VIDROWS_YOUTUBE_PROXY and the yt-dlp settings into a captions source, and
// refusing bad values by name.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaptionSource, parseCaptionsSetting } from "../../src/captions/create-caption-source.js";
import { DirectoryCaptionSource } from "../../src/captions/directory-source.js";
import { UrlTemplateCaptionSource } from "../../src/captions/url-template-source.js";
import { YouTubeCaptionSource } from "../../src/captions/youtube-source.js";
import { YtDlpCaptionSource } from "../../src/captions/ytdlp-source.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { findProgram } from "../../src/platforms/executables.js";
import { PlatformAccess } from "../../src/platforms/platform-access.js";
import { parseProxySetting } from "../../src/platforms/proxy-pool.js";
import { createFakeYtDlp, type FakeYtDlp } from "./fake-ytdlp.js";

describe("VIDROWS_CAPTIONS", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "vidrows-captions-setting-"));
    writeFileSync(
      join(folder, "aaaaaaaaaaa.srt"),
      "1\n00:00:00,000 --> 00:00:01,000\nhello\n\n2\n00:00:01,000 --> 00:00:30,000\nworld\n",
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is youtube when unset, empty or youtube", () => {
    for (const value of [undefined, "", "  ", "youtube"]) {
      expect(parseCaptionsSetting(value)).toEqual({ kind: "youtube" });
      expect(createCaptionSource(value)).toBeInstanceOf(YouTubeCaptionSource);
    }
  });

  it("reads dir:<path> into a source that serves that folder", async () => {
    const source = createCaptionSource(`dir:${folder}`);
    expect(source).toBeInstanceOf(DirectoryCaptionSource);
    const transcript = await source.fetchTranscript("aaaaaaaaaaa");
    expect(transcript.cues.map((cue) => cue.text)).toEqual(["hello", "world"]);
    expect(transcript.durationSeconds).toBe(30);
  });

  it("reads an http(s) URL template with {video_id}", () => {
    for (const template of [
      "https://captions.example/{video_id}.vtt",
      "http://127.0.0.1:9/c?id={video_id}",
    ]) {
      expect(parseCaptionsSetting(template)).toEqual({ kind: "url", template });
      expect(createCaptionSource(template)).toBeInstanceOf(UrlTemplateCaptionSource);
    }
  });

  it("refuses bad values with a message naming the variable", () => {
    const bad = [
      "YouTube-ish",
      "dir:",
      `dir:${join(folder, "missing")}`,
      `dir:${join(folder, "aaaaaaaaaaa.srt")}`,
      "https://captions.example/no-placeholder.vtt",
      "ftp://captions.example/{video_id}.vtt",
      "https://{video_id}:x/",
      "/just/a/path",
      "youtube,",
      ",yt-dlp",
      "youtube,ytdlp",
      "youtube,yt-dlp,youtube",
      `youtube,dir:${folder}`,
      "yt-dlp,https://captions.example/{video_id}.vtt",
    ];
    for (const value of bad) {
      expect(() => createCaptionSource(value), value).toThrow(/VIDROWS_CAPTIONS/);
    }
  });

  it("refuses a VIDROWS_YOUTUBE_PROXY that is not an http(s) or socks5 URL, by name", () => {
    for (const proxy of [
      "ftp://127.0.0.1:21",
      "not a url",
      "127.0.0.1:3128",
      "http://a:3128,socks4://b:1080",
    ]) {
      expect(() => parseProxySetting(proxy), proxy).toThrow(/VIDROWS_YOUTUBE_PROXY/);
      expect(() => loadConfig({ VIDROWS_YOUTUBE_PROXY: proxy }), proxy).toThrow(/VIDROWS_YOUTUBE_PROXY/);
    }
    for (const proxy of [
      "http://user:pass@127.0.0.1:3128",
      "socks5://127.0.0.1:1080",
      "http://a.example:3128, https://b.example:3129 socks5h://c.example:1080",
    ]) {
      const access = new PlatformAccess({ proxies: parseProxySetting(proxy) });
      expect(createCaptionSource("youtube", { access }), proxy).toBeInstanceOf(YouTubeCaptionSource);
    }
  });
});

describe("VIDROWS_CAPTIONS with yt-dlp", () => {
  let ytDlp: FakeYtDlp;
  beforeAll(() => {
    ytDlp = createFakeYtDlp();
  });
  afterAll(() => ytDlp.remove());

  it("reads yt-dlp, and chains of youtube and yt-dlp in the order given", () => {
    expect(parseCaptionsSetting("yt-dlp")).toEqual({ kind: "yt-dlp" });
    expect(parseCaptionsSetting(" youtube , yt-dlp ")).toEqual({
      kind: "chain",
      sources: ["youtube", "yt-dlp"],
    });
    expect(parseCaptionsSetting("yt-dlp,youtube")).toEqual({ kind: "chain", sources: ["yt-dlp", "youtube"] });
    expect(createCaptionSource("yt-dlp", { ytDlpPath: ytDlp.path })).toBeInstanceOf(YtDlpCaptionSource);
  });

  it("names the unknown source and the variable", () => {
    expect(() => parseCaptionsSetting("youtube,ytdl")).toThrow(/^VIDROWS_CAPTIONS .*"ytdl" is not a source/);
  });

  it("stops a worker's start when yt-dlp cannot be found, naming VIDROWS_YTDLP_PATH", () => {
    const missing = join(ytDlp.folder, "no-such-yt-dlp");
    for (const setting of ["yt-dlp", "youtube,yt-dlp"]) {
      expect(() => createCaptionSource(setting, { ytDlpPath: missing }), setting).toThrow(
        /^VIDROWS_YTDLP_PATH is ".*no-such-yt-dlp", but that is not an executable file/,
      );
    }
    // A file that is there but may not be run is no executable either.
    const notExecutable = join(ytDlp.folder, "scenarios.json");
    expect(() => findProgram("yt-dlp", notExecutable, "Captions")).toThrow(/VIDROWS_YTDLP_PATH/);
  });

  it("finds yt-dlp on PATH when VIDROWS_YTDLP_PATH is unset, and says where to look when it is not there", () => {
    const found = (configured: string | undefined, path: string) =>
      findProgram("yt-dlp", configured, "Captions", path);
    expect(found(undefined, ["/nonexistent", ytDlp.folder].join(":"))).toBe(ytDlp.path);
    expect(found("  ", ytDlp.folder)).toBe(ytDlp.path);
    expect(() => found(undefined, "/nonexistent")).toThrow(
      /needs yt-dlp, which is not on PATH.*VIDROWS_YTDLP_PATH/,
    );
  });

  it("reads VIDROWS_YTDLP_PATH and VIDROWS_YTDLP_TIMEOUT_SECONDS at start-up, and refuses bad values by name", () => {
    expect(loadConfig({})).toMatchObject({ ytDlpPath: undefined, ytDlpTimeoutSeconds: 60 });
    const config = loadConfig({
      VIDROWS_CAPTIONS: "youtube,yt-dlp",
      VIDROWS_YTDLP_PATH: "/opt/yt-dlp",
      VIDROWS_YTDLP_TIMEOUT_SECONDS: "90",
    });
    expect(config).toMatchObject({
      captions: "youtube,yt-dlp",
      ytDlpPath: "/opt/yt-dlp",
      ytDlpTimeoutSeconds: 90,
    });
    for (const bad of ["0", "3601", "1.5", "soon"]) {
      expect(() => loadConfig({ VIDROWS_YTDLP_TIMEOUT_SECONDS: bad }), bad).toThrow(
        /^VIDROWS_YTDLP_TIMEOUT_SECONDS must be an integer from 1 to 3600/,
      );
    }
    expect(() => loadConfig({ VIDROWS_CAPTIONS: "youtube,yt_dlp" })).toThrow(ConfigError);
  });
});
