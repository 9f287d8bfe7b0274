// Grouped writes: on SQLite, transactions asked for together share one commit, and each fails alone.
import { sql, type Transaction } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { GroupedWrites } from "../../src/store/grouped-writes.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { openSqliteConnection, type SqliteConnection } from "../../src/store/sqlite/sqlite-driver.js";
import type { Database } from "../../src/store/tables.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const insertSubject = (trx: Transaction<Database>, subject: string) =>
  trx.insertInto("rate_limit_windows").values({ subject, window_started_at: 1, hits: 1 }).execute();

const subjects = async (store: Store) =>
  (await store.db.selectFrom("rate_limit_windows").select("subject").orderBy("subject").execute()).map(
    (row) => row.subject,
  );

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`grouped writes on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: Store;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
    });
    beforeEach(async () => {
      await store.db.deleteFrom("rate_limit_windows").execute();
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it("commits each run's writes, and one that fails is rolled back alone", async () => {
      const writes = new GroupedWrites(store);
      const failure = new Error("this one fails");
      const outcomes = await Promise.allSettled([
        writes.run(async (trx) => {
          await insertSubject(trx, "a");
          return "a";
        }),
        writes.run(async (trx) => {
          await insertSubject(trx, "b");
          throw failure;
        }),
        writes.run(async (trx) => {
          await insertSubject(trx, "c");
          return "c";
        }),
      ]);
      expect(outcomes).toEqual([
        { status: "fulfilled", value: "a" },
        { status: "rejected", reason: failure },
        { status: "fulfilled", value: "c" },
      ]);
      expect(await subjects(store)).toEqual(["a", "c"]);
    });

    it("answers every run when more arrive than one group holds", async () => {
      const writes = new GroupedWrites(store, { maxGroup: 4 });
      const names = Array.from({ length: 10 }, (_, i) => `s${String(i).padStart(2, "0")}`);
      const answered = await Promise.all(
        names.map((subject) =>
          writes.run(async (trx) => {
            await insertSubject(trx, subject);
            return subject;
          }),
        ),
      );
      expect(answered).toEqual(names);
      expect(await subjects(store)).toEqual(names);
      if (dialect.name === "sqlite") expect(writes.committedGroups).toBe(3);
    });
  });
}

describe("grouped writes on sqlite: one commit", () => {
  let database: FreshDatabase;
  let store: Store;
  let otherConnection: SqliteConnection;
  beforeAll(async () => {
    database = await freshDatabase("sqlite");
    store = openStore(database.target);
    await migrateToLatest(store);
    if (database.target.kind !== "sqlite") throw new Error("expected a SQLite file");
    otherConnection = openSqliteConnection(database.target.path, { readOnly: true });
  });
  afterAll(async () => {
    otherConnection?.close();
    await store?.close();
    await database?.drop();
  });
  const committedSubjects = () =>
    (
      otherConnection.prepare("select subject from rate_limit_windows order by subject").all([]) as {
        subject: string;
      }[]
    ).map((row) => row.subject);

  it("commits the runs asked for in one turn together, and answers each only once they are committed", async () => {
    const writes = new GroupedWrites(store);
    const seenByOthersWhenAnswered: string[][] = [];
    const runs = ["x", "y", "z"].map((subject) =>
      writes
        .run((trx) => insertSubject(trx, subject))
        .then(() => seenByOthersWhenAnswered.push(committedSubjects())),
    );
    await Promise.all(runs);
    expect(writes.committedGroups).toBe(1);
    // Another connection sees all three as soon as the first is answered: they were one commit.
    expect(seenByOthersWhenAnswered).toEqual([
      ["x", "y", "z"],
      ["x", "y", "z"],
      ["x", "y", "z"],
    ]);
  });

  it("commits each run on its own with VIDROWS_GROUPED_COMMITS=0, answering each alike", async () => {
    await store.db.deleteFrom("rate_limit_windows").execute();
    const writes = new GroupedWrites(store, { groupCommits: false });
    const seenByOthersWhenAnswered: string[][] = [];
    const runs = ["x", "y", "z"].map((subject) =>
      writes
        .run((trx) => insertSubject(trx, subject))
        .then(() => seenByOthersWhenAnswered.push(committedSubjects())),
    );
    await Promise.all(runs);
    // The first is answered once its own commit is made, before the others commit theirs.
    expect(seenByOthersWhenAnswered[0]).toEqual(["x"]);
    expect(seenByOthersWhenAnswered[2]).toEqual(["x", "y", "z"]);
    expect(writes.committedGroups).toBe(0);
  });

  it("keeps the savepoints' journal in memory, and still rolls back one failed run of a large group", async () => {
    await store.db.deleteFrom("rate_limit_windows").execute();
    // 2 is MEMORY: a journal past 64 KiB would otherwise be written to a temporary file.
    const setting = await sql<{ temp_store: number }>`pragma temp_store`.execute(store.db);
    expect(setting.rows).toEqual([{ temp_store: 2 }]);
    // 60 runs of 8 KiB each take the journal well past 64 KiB; the 30th fails.
    const subjectOf = (index: number) => `${String(index).padStart(2, "0")}${"s".repeat(8192)}`;
    const writes = new GroupedWrites(store);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, index) =>
        writes.run(async (trx) => {
          await insertSubject(trx, subjectOf(index));
          if (index === 30) throw new Error("the 30th fails");
        }),
      ),
    );
    expect(writes.committedGroups).toBe(1);
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(1);
    const kept = committedSubjects().map((subject) => Number(subject.slice(0, 2)));
    expect(kept).toEqual(Array.from({ length: 60 }, (_, index) => index).filter((index) => index !== 30));
  });

  it("fails every run of the group, keeping nothing, when the commit itself fails", async () => {
    await store.db.deleteFrom("rate_limit_windows").execute();
    const writes = new GroupedWrites(store);
    const outcomes = await Promise.allSettled([
      writes.run((trx) => insertSubject(trx, "kept-only-if-committed")),
      writes.run(async (trx) => {
        // A foreign key checked at commit, not at the insert: the commit is what fails.
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto("api_keys")
          .values({
            id: "key_orphan",
            workspace_id: "ws_missing",
            environment: "live",
            label: "orphan",
            note: "",
            key_hash: "hash",
            last_four: "orph",
            created_at: 1,
          })
          .execute();
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committedSubjects()).toEqual([]);
    expect(writes.committedGroups).toBe(0);
    // The connection is usable again afterwards.
    await writes.run((trx) => insertSubject(trx, "after"));
    expect(committedSubjects()).toEqual(["after"]);
  });
});
