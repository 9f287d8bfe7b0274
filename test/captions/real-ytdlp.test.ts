// The command lines vidrows gives yt-dlp, run by the real yt-dlp when one is installed (`apt-get install
// yt-dlp` is enough): the subtitle run writes the chosen track from a recorded info, through a SOCKS5 proxy,
// from a local server. Without yt-dlp on PATH these tests are skipped, and say so.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCaptions } from "../../src/captions/caption-formats.js";
import { readYtDlpInfo } from "../../src/captions/ytdlp-info.js";
import { ytDlpArguments } from "../../src/captions/ytdlp-source.js";
import { subtitleRunArguments, writtenSubtitle } from "../../src/captions/ytdlp-subtitle-run.js";
import { locateProgram } from "../../src/platforms/executables.js";
import { type ProgramRun, runProgram } from "../../src/platforms/programs.js";
import {
  type LocalServer,
  type LocalSocksProxy,
  startLocalServer,
  startLocalSocksProxy,
} from "./local-servers.js";
import { captionFixture } from "../support/captions.js";

const executable = locateProgram("yt-dlp", undefined);
const runYtDlp = (run: Omit<ProgramRun, "program">) => runProgram({ program: "yt-dlp", ...run });
if (executable === null) {
  console.warn(
    "test/captions/real-ytdlp.test.ts: skipped, no yt-dlp on PATH (apt-get install yt-dlp runs it).",
  );
}

describe.skipIf(executable === null)("The real yt-dlp with vidrows's command lines", () => {
  let platform: LocalServer;
  let socks: LocalSocksProxy;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "vidrows-real-yt-dlp-"));
    platform = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(captionFixture("auto.en.json3"));
    });
    socks = await startLocalSocksProxy();
  });
  afterAll(async () => {
    await platform.close();
    await socks.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("understands the info run's command line (an old release would exit 2)", async () => {
    const output = await runYtDlp({
      executable: executable ?? "",
      args: ytDlpArguments(`${platform.origin}/nothing-here`, { proxy: socks.url }, [
        "--sleep-requests",
        "0.1",
      ]),
      timeoutMs: 60_000,
    });
    expect(output.stderr).not.toMatch(/no such option|unrecognized/i);
    expect(output.exitCode).not.toBe(2);
  });

  it("writes the chosen track from a recorded info, through the SOCKS5 proxy", async () => {
    const infoText = captionFixture("yt-dlp/info-auto-only.json").replaceAll(
      "https://www.youtube.com",
      platform.origin,
    );
    const info = readYtDlpInfo(infoText);
    const track = info?.tracks.find((candidate) => candidate.key === "en-orig");
    expect(track).toBeDefined();
    if (track === undefined) return;
    const infoFile = join(folder, "info.json");
    writeFileSync(infoFile, infoText);
    const output = await runYtDlp({
      executable: executable ?? "",
      args: subtitleRunArguments(infoFile, track, folder, { proxy: socks.url }),
      timeoutMs: 60_000,
    });
    expect(output.exitCode, output.stderr).toBe(0);
    const text = await writtenSubtitle(folder, track);
    expect(text).not.toBeNull();
    expect(parseCaptions(text ?? "", "json3")[0]?.text).toBe("hey everyone welcome back to the kitchen");
    expect(platform.requests.some((request) => request.url.pathname === "/api/timedtext")).toBe(true);
    expect(socks.connections).toContain(platform.origin.replace("http://", ""));
  });
});
