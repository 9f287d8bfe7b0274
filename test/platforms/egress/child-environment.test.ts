// What yt-dlp and ffmpeg inherit: a fake program that writes out its whole environment shows that vidrows'
// secrets stay behind, and that what the programs read themselves and the guard's proxy arrive.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnvironment } from "../../../src/platforms/egress/child-environment.js";
import { createFakeExecutable } from "../../support/fake-executable.js";

const dumper = createFakeExecutable(
  "vidrows-env-dump-",
  `require("fs").writeFileSync(require("path").join(__dirname, "env.json"), JSON.stringify(process.env));`,
);
afterAll(() => dumper.remove());

/** The environment the fake program saw when run with `env`. */
function seenBy(env: Record<string, string>): Record<string, string> {
  const run = spawnSync(dumper.path, [], { env });
  expect(run.status).toBe(0);
  return JSON.parse(readFileSync(join(dumper.folder, "env.json"), "utf8")) as Record<string, string>;
}

const parent = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/vidrows",
  LANG: "C.UTF-8",
  LC_ALL: "en_US.UTF-8",
  TZ: "UTC",
  XDG_CONFIG_HOME: "/home/vidrows/.config",
  XDG_CACHE_HOME: "/home/vidrows/.cache",
  SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt",
  SSL_CERT_DIR: "/etc/ssl/certs",
  REQUESTS_CA_BUNDLE: "/etc/ssl/certs/ca-certificates.crt",
  DATABASE_URL: "postgres://vidrows:database-secret@db/vidrows",
  VIDROWS_DATABASE_URL: "postgres://vidrows:database-secret@db/vidrows",
  OPENAI_API_KEY: "sk-model-secret",
  VIDROWS_LLM_API_KEY: "sk-model-secret",
  VIDROWS_TRANSCRIBE_API_KEY: "sk-transcription-secret",
  VIDROWS_DATA_KEY: "data-key-secret",
  VIDROWS_WEBHOOK_SECRET: "whsec_secret",
  VIDROWS_YOUTUBE_PROXY: "http://user:proxy-secret@proxy.example:8080",
  VIDROWS_YOUTUBE_COOKIES: "/secrets/cookies.txt",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  PGPASSWORD: "pg-secret",
  http_proxy: "http://operator-proxy:3128",
  HTTPS_PROXY: "http://operator-proxy:3128",
  NO_PROXY: "127.0.0.1,localhost",
};

describe("the environment of yt-dlp and ffmpeg", () => {
  it("holds none of vidrows' settings or secrets", () => {
    const seen = seenBy(childEnvironment(parent, "http://127.0.0.1:40000"));
    const text = JSON.stringify(seen);
    for (const secret of ["secret", "sk-", "whsec", "postgres://", "cookies.txt", "operator-proxy"]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(Object.keys(seen).filter((name) => name.startsWith("VIDROWS_"))).toEqual([]);
    expect(seen.NO_PROXY).toBeUndefined();
  });

  it("passes what the programs read themselves: search path, home, locale, XDG folders, certificates", () => {
    const seen = seenBy(childEnvironment(parent, undefined));
    for (const name of [
      "PATH",
      "HOME",
      "LANG",
      "LC_ALL",
      "TZ",
      "XDG_CONFIG_HOME",
      "XDG_CACHE_HOME",
      "SSL_CERT_FILE",
      "SSL_CERT_DIR",
      "REQUESTS_CA_BUNDLE",
    ] as const) {
      expect(seen[name], name).toBe(parent[name]);
    }
  });

  it("gives the guard's session as the proxy of every scheme, and the caller's own additions", () => {
    const seen = seenBy(childEnvironment(parent, "http://127.0.0.1:40000", { PYTHONUTF8: "1" }));
    for (const name of ["http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "HTTPS_PROXY", "FTP_PROXY"]) {
      expect(seen[name], name).toBe("http://127.0.0.1:40000");
    }
    expect(seen.PYTHONUTF8).toBe("1");
  });
});
