// Settings from the environment: defaults, database detection, and bad values refused by name.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDatabaseTarget } from "../../src/config.js";

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

  it("reads HOST, PORT and LOG_LEVEL", () => {
    const config = loadConfig({ HOST: "0.0.0.0", PORT: "3000", LOG_LEVEL: "debug" });
    expect(config).toMatchObject({ host: "0.0.0.0", port: 3000, logLevel: "debug" });
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  it("refuses a PORT that is not a port number, naming PORT and the value", () => {
    for (const port of ["abc", "80.5", "-1", "65536", "8080x", " 80", "0x50", "1e3"]) {
      const attempt = () => loadConfig({ PORT: port });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(`PORT must be an integer from 0 to 65535; got "${port}".`);
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

  it("remembers answers unless VIDROWS_REMEMBER_ANSWERS is 0, and refuses other values", () => {
    expect(loadConfig({}).rememberAnswers).toBe(true);
    expect(loadConfig({ VIDROWS_REMEMBER_ANSWERS: "1" }).rememberAnswers).toBe(true);
    expect(loadConfig({ VIDROWS_REMEMBER_ANSWERS: "0" }).rememberAnswers).toBe(false);
    expect(() => loadConfig({ VIDROWS_REMEMBER_ANSWERS: "off" })).toThrow(
      /VIDROWS_REMEMBER_ANSWERS must be 1 \(on\) or 0 \(off\); got "off"/,
    );
  });

  it("trusts a proxy only when VIDROWS_TRUST_PROXY is 1", () => {
    expect(loadConfig({ VIDROWS_TRUST_PROXY: "1" }).trustProxy).toBe(true);
    expect(loadConfig({ VIDROWS_TRUST_PROXY: "true" }).trustProxy).toBe(false);
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
