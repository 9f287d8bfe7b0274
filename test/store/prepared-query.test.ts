// Prepared queries: built once, run with new values each time, on the store and inside transactions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { prepareQuery } from "../../src/store/prepared-query.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`prepared queries on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: Store;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      await store.db
        .insertInto("rate_limit_windows")
        .values([
          { subject: "a", window_started_at: 1, hits: 10 },
          { subject: "a", window_started_at: 2, hits: 20 },
          { subject: "b", window_started_at: 1, hits: 30 },
        ])
        .execute();
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it("puts each run's values where the slots were, constants of the query staying as they are", async () => {
      const hitsOf = prepareQuery<[string, number], { hits: number }>(store.db, 2, (db, subject, limit) =>
        db
          .selectFrom("rate_limit_windows")
          .select("hits")
          .where("subject", "=", subject)
          .where("hits", ">", 5)
          .orderBy("window_started_at")
          .limit(limit),
      );
      expect((await hitsOf.rows(store.db, "a", 10)).map((r) => Number(r.hits))).toEqual([10, 20]);
      expect((await hitsOf.rows(store.db, "a", 1)).map((r) => Number(r.hits))).toEqual([10]);
      expect((await hitsOf.first(store.db, "b", 10))?.hits).toEqual(30);
      expect(await hitsOf.first(store.db, "nobody", 10)).toBeUndefined();
    });

    it("uses one argument in several places, and runs inside a transaction that rolls back", async () => {
      const bump = prepareQuery<[string, number], never>(store.db, 2, (db, subject, by) =>
        db
          .updateTable("rate_limit_windows")
          .set((eb) => ({ hits: eb("hits", "+", by) }))
          .where("subject", "=", subject)
          .where("window_started_at", "<", by),
      );
      const rolledBack = new Error("roll back");
      await expect(
        store.db.transaction().execute(async (trx) => {
          const result = await bump.run(trx, "b", 2);
          expect(result.numAffectedRows).toBe(1n);
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      const row = await store.db
        .selectFrom("rate_limit_windows")
        .select("hits")
        .where("subject", "=", "b")
        .executeTakeFirstOrThrow();
      expect(Number(row.hits)).toBe(30);
    });

    it("refuses, when prepared, a query that leaves an argument out", () => {
      expect(() =>
        prepareQuery<[string, string], unknown>(store.db, 2, (db, subject) =>
          db.selectFrom("rate_limit_windows").selectAll().where("subject", "=", subject),
        ),
      ).toThrow(/never uses argument 1/);
    });
  });
}
