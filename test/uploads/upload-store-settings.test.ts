// VIDROWS_UPLOAD_STORE and the S3 settings: which store each value names, and the refusals that say what to write instead.
import { describe, expect, it } from "vitest";
import type { DatabaseTarget } from "../../src/config/database-settings.js";
import { ConfigError } from "../../src/config/setting-values.js";
import { uploadSettings } from "../../src/config/upload-settings.js";

const sqlite: DatabaseTarget = { kind: "sqlite", path: "/srv/vidrows/vidrows.db" };
const postgres: DatabaseTarget = { kind: "postgres", url: "postgres://vidrows@db.internal/vidrows" };
const storeOf = (env: NodeJS.ProcessEnv, database: DatabaseTarget) => uploadSettings(env, database).store;

describe("VIDROWS_UPLOAD_STORE", () => {
  it("is the folder beside the SQLite file, and the database itself on PostgreSQL, when unset", () => {
    expect(storeOf({}, sqlite)).toEqual({ kind: "folder", path: "/srv/vidrows/vidrows.db-uploads" });
    expect(storeOf({}, postgres)).toEqual({ kind: "database" });
    expect(storeOf({ VIDROWS_UPLOAD_STORE: "  " }, postgres)).toEqual({ kind: "database" });
  });

  it("names a folder on either database, and `database` on PostgreSQL only", () => {
    expect(storeOf({ VIDROWS_UPLOAD_STORE: "/mnt/shared/uploads" }, postgres)).toEqual({
      kind: "folder",
      path: "/mnt/shared/uploads",
    });
    expect(storeOf({ VIDROWS_UPLOAD_STORE: "./database" }, sqlite)).toEqual({
      kind: "folder",
      path: "./database",
    });
    expect(storeOf({ VIDROWS_UPLOAD_STORE: "database" }, postgres)).toEqual({ kind: "database" });
    expect(() => storeOf({ VIDROWS_UPLOAD_STORE: "database" }, sqlite)).toThrow(ConfigError);
    expect(() => storeOf({ VIDROWS_UPLOAD_STORE: "database" }, sqlite)).toThrow("`./database`");
  });

  it("names a bucket and prefix with s3://, the endpoint and region from their own settings", () => {
    expect(
      storeOf(
        {
          VIDROWS_UPLOAD_STORE: "s3://media-inbox/vidrows/uploads",
          VIDROWS_S3_ENDPOINT: "http://minio.internal:9000",
          VIDROWS_S3_REGION: "eu-central-1",
          AWS_REGION: "us-west-2",
        },
        sqlite,
      ),
    ).toEqual({
      kind: "s3",
      bucket: "media-inbox",
      prefix: "vidrows/uploads/",
      endpoint: "http://minio.internal:9000",
      region: "eu-central-1",
    });
    expect(storeOf({ VIDROWS_UPLOAD_STORE: "s3://media-inbox", AWS_REGION: "us-west-2" }, postgres)).toEqual({
      kind: "s3",
      bucket: "media-inbox",
      prefix: "",
      endpoint: undefined,
      region: "us-west-2",
    });
    expect(storeOf({ VIDROWS_UPLOAD_STORE: "s3://media-inbox/" }, postgres)).toMatchObject({
      prefix: "",
      region: "us-east-1",
    });
  });

  it.each([
    ["s3://", "is not a bucket name"],
    ["s3://Media_Inbox/x", "is not a bucket name"],
    ["s3://ab", "is not a bucket name"],
    ["gs://media-inbox/x", "a gs:// store is not supported"],
    ["https://media-inbox.s3.amazonaws.com/x", "a https:// store is not supported"],
  ])("refuses %s, saying why", (value, why) => {
    expect(() => storeOf({ VIDROWS_UPLOAD_STORE: value }, postgres)).toThrow(why);
  });

  it.each(["minio.internal:9000", "ftp://minio.internal", "not a url"])(
    "refuses VIDROWS_S3_ENDPOINT=%s, asking for an http(s) URL",
    (endpoint) => {
      expect(() =>
        storeOf({ VIDROWS_UPLOAD_STORE: "s3://media-inbox", VIDROWS_S3_ENDPOINT: endpoint }, postgres),
      ).toThrow(/VIDROWS_S3_ENDPOINT must be (a URL|an http)/);
    },
  );
});
