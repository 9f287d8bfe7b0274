// Settings from the environment: defaults, database detection, and bad values refused by name.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDatabaseTarget } from "../../src/config.js";
import { type MechanismSwitches, mechanismVariables } from "../../src/mechanism-switches.js";

describe("loadConfig", () => {
  it("has the documented defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      database: { kind: "sqlite", path: "./data/vidrows.db" },
      host: "127.0.0.1",
      port: 8080,
      logLevel: "info",
      trustProxy: false,
    });
    expect([...config.plans.keys()]).toEqual(["free", "pro", "scale"]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("has no speech-to-text unless a VIDROWS_TRANSCRIBE_* setting is given, then defaults the rest", () => {
    expect(loadConfig({}).transcription).toBeNull();
    expect(
      loadConfig({ VIDROWS_LLM_API_KEY: "llm-key", VIDROWS_TRANSCRIBE_MODEL: "whisper-large" }).transcription,
    ).toEqual({
      baseUrl: "https://api.openai.com/v1",
      apiKey: "llm-key",
      model: "whisper-large",
      maxUploadBytes: 25_000_000,
      requestTimeoutSeconds: 300,
      ffmpegPath: undefined,
      maxAnswerBytes: 16_000_000,
      maxRetryAfterSeconds: 120,
      downloadTimeoutSeconds: 900,
    });
    const local = loadConfig({
      VIDROWS_TRANSCRIBE_BASE_URL: "http://127.0.0.1:8000/v1",
      VIDROWS_TRANSCRIBE_API_KEY: "stt-key",
      VIDROWS_TRANSCRIBE_MAX_BYTES: "1000000",
      VIDROWS_FFMPEG_PATH: "/opt/ffmpeg",
      VIDROWS_TRANSCRIBE_MAX_ANSWER_BYTES: "2000000",
      VIDROWS_TRANSCRIBE_MAX_RETRY_AFTER_SECONDS: "30",
      VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS: "60",
    }).transcription;
    expect(local).toMatchObject({
      baseUrl: "http://127.0.0.1:8000/v1",
      apiKey: "stt-key",
      model: "whisper-1",
    });
    expect(local).toMatchObject({ maxUploadBytes: 1_000_000, ffmpegPath: "/opt/ffmpeg" });
    expect(local).toMatchObject({ maxAnswerBytes: 2_000_000, maxRetryAfterSeconds: 30 });
    expect(local).toMatchObject({ downloadTimeoutSeconds: 60 });
    expect(() =>
      loadConfig({ VIDROWS_TRANSCRIBE_MODEL: "m", VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS: "0" }),
    ).toThrow(/VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS/);
  });

  it("reads the bounds of what a page may make a video hold, refusing values out of range by name", () => {
    expect(loadConfig({}).worker).toMatchObject({
      audioMaxKilobitsPerSecond: 320,
      transcriptMaxCharsPerMinute: 5000,
    });
    expect(
      loadConfig({ VIDROWS_AUDIO_MAX_KBPS: "128", VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE: "3000" }).worker,
    ).toMatchObject({ audioMaxKilobitsPerSecond: 128, transcriptMaxCharsPerMinute: 3000 });
    expect(() => loadConfig({ VIDROWS_AUDIO_MAX_KBPS: "0" })).toThrow(/VIDROWS_AUDIO_MAX_KBPS/);
    expect(() => loadConfig({ VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE: "lots" })).toThrow(
      /VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE/,
    );
  });

  it("refuses a VIDROWS_TRANSCRIBE_BASE_URL that is not http(s), naming it", () => {
    expect(() => loadConfig({ VIDROWS_TRANSCRIBE_BASE_URL: "ftp://x/v1" })).toThrow(
      /VIDROWS_TRANSCRIBE_BASE_URL/,
    );
    expect(() => loadConfig({ VIDROWS_TRANSCRIBE_MODEL: "m", VIDROWS_TRANSCRIBE_MAX_BYTES: "12MB" })).toThrow(
      /VIDROWS_TRANSCRIBE_MAX_BYTES/,
    );
  });

  it("reads the listing slots and each workspace's queue, refusing values out of range by name", () => {
    expect(loadConfig({}).listings).toEqual({ slots: 4, queuePerWorkspace: 8 });
    expect(loadConfig({ VIDROWS_LISTING_SLOTS: "16", VIDROWS_LISTING_QUEUE: "0" }).listings).toEqual({
      slots: 16,
      queuePerWorkspace: 0,
    });
    for (const slots of ["0", "257", "-1", "two", "4.5"]) {
      expect(() => loadConfig({ VIDROWS_LISTING_SLOTS: slots })).toThrow(/VIDROWS_LISTING_SLOTS/);
    }
    for (const queue of ["-1", "10001", "many", " 8"]) {
      expect(() => loadConfig({ VIDROWS_LISTING_QUEUE: queue })).toThrow(/VIDROWS_LISTING_QUEUE/);
    }
  });

  it("reads HOST, PORT and LOG_LEVEL", () => {
    const config = loadConfig({ HOST: "0.0.0.0", PORT: "3000", LOG_LEVEL: "debug" });
    expect(config).toMatchObject({ host: "0.0.0.0", port: 3000, logLevel: "debug" });
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  it("listens for metrics on VIDROWS_METRICS_HOST, 127.0.0.1 unless set, whatever HOST is", () => {
    expect(loadConfig({ HOST: "0.0.0.0", VIDROWS_METRICS_PORT: "9464" }).metricsHost).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "0.0.0.0", VIDROWS_METRICS_HOST: "10.0.0.5" }).metricsHost).toBe("10.0.0.5");
    expect(loadConfig({ VIDROWS_METRICS_HOST: " " }).metricsHost).toBe("127.0.0.1");
  });

  it("reads VIDROWS_EGRESS_ALLOW into the networks opened, none unless set, and refuses a bad entry by name", () => {
    expect(loadConfig({}).egressAllowed?.has("127.0.0.1")).toBe(false);
    const allowed = loadConfig({ VIDROWS_EGRESS_ALLOW: "127.0.0.1, 10.0.0.0/8" }).egressAllowed;
    expect([allowed?.has("127.0.0.1"), allowed?.has("10.9.9.9"), allowed?.has("192.168.0.1")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(() => loadConfig({ VIDROWS_EGRESS_ALLOW: "localhost" })).toThrow(
      /VIDROWS_EGRESS_ALLOW: "localhost"/,
    );
  });

  it("refuses a PORT that is not a port number, naming PORT and the value", () => {
    for (const port of ["abc", "80.5", "-1", "65536", "8080x", " 80", "0x50", "1e3"]) {
      const attempt = () => loadConfig({ PORT: port });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(`PORT must be an integer from 0 to 65535; got "${port}".`);
    }
  });

  it("reads VIDROWS_HANDOVER_CLAIM_SECONDS (60 by default, 3 to 3600)", () => {
    expect(loadConfig({}).handoverClaimSeconds).toBe(60);
    expect(loadConfig({ VIDROWS_HANDOVER_CLAIM_SECONDS: "5" }).handoverClaimSeconds).toBe(5);
    for (const bad of ["2", "3601", "ten"]) {
      expect(() => loadConfig({ VIDROWS_HANDOVER_CLAIM_SECONDS: bad }), bad).toThrow(
        `VIDROWS_HANDOVER_CLAIM_SECONDS must be an integer from 3 to 3600; got "${bad}".`,
      );
    }
  });

  it("refuses an unknown LOG_LEVEL, naming LOG_LEVEL and the levels", () => {
    const attempt = () => loadConfig({ LOG_LEVEL: "loud" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "loud"/,
    );
  });

  it("refuses a DATABASE_URL of another scheme, naming DATABASE_URL and the scheme but not the URL", () => {
    const cases: [string, string][] = [
      ["mysql://root:hunter2@localhost/vidrows", "mysql"],
      ["sqlite:///tmp/x.db", "sqlite"],
      ["https://db.example.com", "https"],
    ];
    for (const [url, scheme] of cases) {
      const attempt = () => loadConfig({ DATABASE_URL: url });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(
        `DATABASE_URL must be a SQLite file path or a postgres:// URL; got a ${scheme}:// URL.`,
      );
    }
    // A password in the URL never reaches the message (which is printed at start).
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@localhost/vidrows" })).not.toThrow(
      /hunter2/,
    );
  });

  it("refuses an unreadable VIDROWS_PLANS file as a ConfigError naming it", () => {
    const attempt = () => loadConfig({ VIDROWS_PLANS: "/nonexistent/plans.json" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/^VIDROWS_PLANS: cannot read \/nonexistent\/plans\.json/);
  });

  const switches: [string, (config: ReturnType<typeof loadConfig>) => boolean, boolean][] = [
    ["VIDROWS_REMEMBER_ANSWERS", (c) => c.rememberAnswers, true],
    ["VIDROWS_TRUST_PROXY", (c) => c.trustProxy, false],
    ["VIDROWS_WEBHOOK_ALLOW_PRIVATE", (c) => c.webhooks.allowPrivate, false],
    ...Object.entries(mechanismVariables).map(
      ([key, name]): [string, (config: ReturnType<typeof loadConfig>) => boolean, boolean] => [
        name,
        (c) => c.mechanisms?.[key as keyof MechanismSwitches] as boolean,
        true,
      ],
    ),
  ];

  for (const [name, read, fallback] of switches) {
    it(`reads ${name} as on or off in any of the usual words, and refuses anything else by name`, () => {
      expect(read(loadConfig({}))).toBe(fallback);
      expect(read(loadConfig({ [name]: "" }))).toBe(fallback);
      for (const on of ["1", "true", "TRUE", "True", "yes", "YES", "on", "On"]) {
        expect(read(loadConfig({ [name]: on })), on).toBe(true);
      }
      for (const off of ["0", "false", "FALSE", "no", "No", "off", "OFF"]) {
        expect(read(loadConfig({ [name]: off })), off).toBe(false);
      }
      for (const bad of ["2", "-1", "enabled", "y", "n", " 1", "true ", "onn"]) {
        const attempt = () => loadConfig({ [name]: bad });
        expect(attempt, bad).toThrow(ConfigError);
        expect(attempt, bad).toThrow(
          `${name} must be on (1, true, yes, on) or off (0, false, no, off); got "${bad}".`,
        );
      }
    });
  }

  it("checks VIDROWS_CAPTIONS at start-up, whatever the process runs", () => {
    expect(loadConfig({}).captions).toBe("youtube");
    expect(loadConfig({ VIDROWS_CAPTIONS: "dir:/srv/captions" }).captions).toBe("dir:/srv/captions");
    const template = "https://captions.example/{video_id}.vtt";
    expect(loadConfig({ VIDROWS_CAPTIONS: template }).captions).toBe(template);
    for (const bad of ["ftp://x", "https://captions.example/fixed.vtt", "dir:", "youtub"]) {
      const attempt = () => loadConfig({ VIDROWS_CAPTIONS: bad });
      expect(attempt, bad).toThrow(ConfigError);
      expect(attempt, bad).toThrow(
        /^VIDROWS_CAPTIONS must be "youtube", "dir:<path>" or an http\(s\):\/\/ URL/,
      );
    }
  });

  it("reads VIDROWS_OTHER_PLATFORMS (any by default, known, off), and refuses anything else by name", () => {
    expect(loadConfig({}).otherPlatforms).toBe("any");
    expect(loadConfig({ VIDROWS_OTHER_PLATFORMS: "known" }).otherPlatforms).toBe("known");
    expect(loadConfig({ VIDROWS_OTHER_PLATFORMS: "OFF" }).otherPlatforms).toBe("off");
    const attempt = () => loadConfig({ VIDROWS_OTHER_PLATFORMS: "vimeo" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/^VIDROWS_OTHER_PLATFORMS must be "any" .* got "vimeo"\.$/);
  });

  it("checks VIDROWS_YOUTUBE_PROXY at start-up, naming it", () => {
    expect(loadConfig({ VIDROWS_YOUTUBE_PROXY: "http://proxy:3128" }).youtubeProxies).toEqual([
      "http://proxy:3128",
    ]);
    const pool = "http://a:3128,socks5://user:pw@b:1080";
    expect(loadConfig({ VIDROWS_YOUTUBE_PROXY: pool }).youtubeProxies).toEqual([
      "http://a:3128",
      "socks5://user:pw@b:1080",
    ]);
    expect(loadConfig({}).youtubeProxies).toEqual([]);
    for (const bad of ["ftp://proxy:21", "proxy:3128", "not a url", "http://a:3128,socks4://b:1080"]) {
      const attempt = () => loadConfig({ VIDROWS_YOUTUBE_PROXY: bad });
      expect(attempt, bad).toThrow(ConfigError);
      expect(attempt, bad).toThrow(
        /^VIDROWS_YOUTUBE_PROXY must be one or more http:\/\/, https:\/\/ or socks5:\/\//,
      );
    }
    // A bad entry's password is not repeated in the message.
    expect(() => loadConfig({ VIDROWS_YOUTUBE_PROXY: "ftp://user:secret@proxy:21" })).not.toThrow(/secret/);
  });

  it("limits slow clients by default, reads the limits in seconds, and keeps headers within the request", () => {
    expect(loadConfig({}).httpTimeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 72_000,
    });
    expect(
      loadConfig({
        VIDROWS_HEADERS_TIMEOUT_SECONDS: "2",
        VIDROWS_REQUEST_TIMEOUT_SECONDS: "5",
        VIDROWS_KEEP_ALIVE_TIMEOUT_SECONDS: "3",
      }).httpTimeouts,
    ).toEqual({ headersMs: 2000, requestMs: 5000, keepAliveMs: 3000 });
    for (const name of [
      "VIDROWS_HEADERS_TIMEOUT_SECONDS",
      "VIDROWS_REQUEST_TIMEOUT_SECONDS",
      "VIDROWS_KEEP_ALIVE_TIMEOUT_SECONDS",
    ]) {
      for (const bad of ["0", "-1", "1.5", "3601", "never"]) {
        expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(
          `${name} must be an integer from 1 to 3600; got "${bad}".`,
        );
      }
    }
    expect(() =>
      loadConfig({ VIDROWS_HEADERS_TIMEOUT_SECONDS: "40", VIDROWS_REQUEST_TIMEOUT_SECONDS: "30" }),
    ).toThrow(
      "VIDROWS_HEADERS_TIMEOUT_SECONDS (40) must not be more than VIDROWS_REQUEST_TIMEOUT_SECONDS (30).",
    );
  });

  it("reads the webhook lease in seconds, at least 15 (one attempt may take 10)", () => {
    expect(loadConfig({}).webhooks.leaseSeconds).toBe(60);
    expect(loadConfig({ VIDROWS_WEBHOOK_LEASE_SECONDS: "15" }).webhooks.leaseSeconds).toBe(15);
    expect(() => loadConfig({ VIDROWS_WEBHOOK_LEASE_SECONDS: "14" })).toThrow(
      'VIDROWS_WEBHOOK_LEASE_SECONDS must be an integer from 15 to 86400; got "14".',
    );
  });

  it("reads VIDROWS_CHUNK_TOKENS, leaving the extractor's default when it is unset, and refuses a tiny one", () => {
    expect(loadConfig({}).worker.chunkTokens).toBeUndefined();
    expect(loadConfig({ VIDROWS_CHUNK_TOKENS: "4000" }).worker.chunkTokens).toBe(4000);
    expect(() => loadConfig({ VIDROWS_CHUNK_TOKENS: "100" })).toThrow(/VIDROWS_CHUNK_TOKENS/);
  });

  it("lists every setting it reads in .env.example, with its default", () => {
    const example = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");
    const source = readFileSync(new URL("../../src/config.ts", import.meta.url), "utf8");
    const extraction = readFileSync(new URL("../../src/model-settings.ts", import.meta.url), "utf8");
    const mechanisms = readFileSync(new URL("../../src/mechanism-switches.ts", import.meta.url), "utf8");
    const read = new Set(
      [
        ...`${source}\n${extraction}\n${mechanisms}`.matchAll(
          /\b(VIDROWS_[A-Z_]+|DATABASE_URL|HOST|PORT|LOG_LEVEL)\b/g,
        ),
      ].map((m) => m[1]),
    );
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z_]+)=/gm)].map((m) => m[1]));
    for (const name of read) expect(listed.has(name), `${name} in .env.example`).toBe(true);
    // Every value the example sets is one the process accepts.
    const values = Object.fromEntries(
      [...example.matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1], m[2] as string]),
    );
    expect(() => loadConfig(values)).not.toThrow();
  });
});

describe("parseDatabaseTarget", () => {
  it("recognises postgres:// and postgresql:// URLs", () => {
    expect(parseDatabaseTarget("postgres://user:pw@db:5432/vidrows")).toEqual({
      kind: "postgres",
      url: "postgres://user:pw@db:5432/vidrows",
    });
    expect(parseDatabaseTarget("postgresql://db/vidrows?sslmode=require")).toEqual({
      kind: "postgres",
      url: "postgresql://db/vidrows?sslmode=require",
    });
  });

  it("takes anything without a scheme as a SQLite file path", () => {
    expect(parseDatabaseTarget("/var/lib/vidrows/db.sqlite")).toEqual({
      kind: "sqlite",
      path: "/var/lib/vidrows/db.sqlite",
    });
    expect(parseDatabaseTarget("data/x.db")).toEqual({ kind: "sqlite", path: "data/x.db" });
    expect(parseDatabaseTarget(":memory:")).toEqual({ kind: "sqlite", path: ":memory:" });
    expect(parseDatabaseTarget(undefined)).toEqual({ kind: "sqlite", path: "./data/vidrows.db" });
    expect(parseDatabaseTarget("")).toEqual({ kind: "sqlite", path: "./data/vidrows.db" });
  });

  it("passes the detected URL through loadConfig", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" }).database).toEqual({
      kind: "postgres",
      url: "postgres://postgres@127.0.0.1:5432/test",
    });
  });
});
