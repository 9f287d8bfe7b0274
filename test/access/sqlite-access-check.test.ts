// SQLite's access check: one reading of the file as a request arrives decides what is remembered and what is read again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services.js";
import { SqliteAccessCheck } from "../../src/access/sqlite-access-check.js";
import { windowStartOf, workspaceSubject } from "../../src/access/rate-limiter.js";
import { hashApiKey } from "../../src/domain/api-key-material.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import type { SqliteStore } from "../../src/store/sqlite/open-sqlite.js";
import { dialects, type FreshDatabase, freshDatabase } from "../support/databases.js";

const plans = loadPlanTable(undefined);
const sqlite = dialects.find((d) => d.name === "sqlite");

function sqliteStore(store: OpenedStore): SqliteStore {
  if (store.dialect !== "sqlite") throw new Error("The test opened a SQLite file.");
  return store;
}

describe.skipIf(!sqlite || sqlite.skipReason !== null)("the access check on SQLite", () => {
  let database: FreshDatabase;
  let store: SqliteStore;
  // A second connection to the same file stands in for another process.
  let other: SqliteStore;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    database = await freshDatabase("sqlite");
    store = sqliteStore(openStore(database.target));
    other = sqliteStore(openStore(database.target));
    const created = await createServices(store, plans).workspaces.create("sqlite-check", "pro");
    key = created.apiKey;
    workspaceId = created.workspaceId;
  });
  afterAll(async () => {
    await other?.close();
    await store?.close();
    await database?.drop();
  });

  const otherProcessWrites = (subject: string) =>
    other.db
      .insertInto("rate_limit_windows")
      .values({ subject, window_started_at: 0, hits: 1 })
      .onConflict((conflict) => conflict.columns(["subject", "window_started_at"]).doNothing())
      .execute();

  it("answers a remembered key at once, until another process writes to the file", async () => {
    const check = new SqliteAccessCheck(store, plans);
    const now = Date.now();
    const first = check.admit(key, now);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).caller?.workspaceId).toBe(workspaceId);
    // The lookup recorded the key's first use, which moved the stamp; the next lookup is remembered.
    expect((await check.admit(key, now)).caller?.workspaceId).toBe(workspaceId);
    const remembered = check.admit(key, now);
    expect(remembered).not.toBeInstanceOf(Promise);
    expect((remembered as Awaited<typeof remembered>).readStamp?.scope).toBe("");

    await otherProcessWrites(`ws:elsewhere-${now}`);
    expect(check.admit(key, now)).toBeInstanceOf(Promise);
  });

  it("refuses a key revoked by another process on the very next request", async () => {
    const { apiKey } = await createServices(store, plans).workspaces.create("revoked-elsewhere", "pro");
    const check = new SqliteAccessCheck(store, plans);
    const now = Date.now();
    await check.admit(apiKey, now);
    await check.admit(apiKey, now);
    expect(check.admit(apiKey, now)).not.toBeInstanceOf(Promise);
    await other.db
      .updateTable("api_keys")
      .set({ revoked_at: now })
      .where("key_hash", "=", hashApiKey(apiKey))
      .execute();
    expect((await check.admit(apiKey, now)).caller).toBeNull();
  });

  it("reads a window's count again only when another process has committed since", async () => {
    const check = new SqliteAccessCheck(store, plans);
    const windowStartedAt = windowStartOf(Date.now());
    const subject = workspaceSubject(workspaceId);
    await store.db
      .insertInto("rate_limit_windows")
      .values({ subject, window_started_at: windowStartedAt, hits: 7 })
      .execute();
    const learnt = async () =>
      (await check.admit(undefined, windowStartedAt)).windowHits(subject, windowStartedAt);
    expect(await learnt()).toBe(7);
    // Nothing new from other processes: nothing to learn beyond what this process knows.
    expect(await learnt()).toBeUndefined();
    await other.db
      .updateTable("rate_limit_windows")
      .set({ hits: 12 })
      .where("subject", "=", subject)
      .where("window_started_at", "=", windowStartedAt)
      .execute();
    expect(await learnt()).toBe(12);
    expect(await learnt()).toBeUndefined();
  });

  it("remembers no key and gives no read stamp when remembering is off", async () => {
    const forgetful = sqliteStore(openStore(database.target, { rememberAnswers: false }));
    try {
      const check = new SqliteAccessCheck(forgetful, plans);
      const now = Date.now();
      await check.admit(key, now);
      const again = check.admit(key, now);
      expect(again).toBeInstanceOf(Promise);
      const admitted = await again;
      expect(admitted.caller?.workspaceId).toBe(workspaceId);
      expect(admitted.readStamp).toBeUndefined();
    } finally {
      await forgetful.close();
    }
  });
});
