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
      const hitsOf = prepareQuery<{ subject: string; limit: number }, { hits: number }>(store.db, (db, p) =>
        db
          .selectFrom("rate_limit_windows")
          .select("hits")
          .where("subject", "=", p.subject)
          .where("hits", ">", 5)
          .orderBy("window_started_at")
          .limit(p.limit),
      );
      expect((await hitsOf.rows(store.db, { subject: "a", limit: 10 })).map((r) => Number(r.hits))).toEqual([
        10, 20,
      ]);
      expect((await hitsOf.rows(store.db, { limit: 1, subject: "a" })).map((r) => Number(r.hits))).toEqual([
        10,
      ]);
      expect((await hitsOf.first(store.db, { subject: "b", limit: 10 }))?.hits).toEqual(30);
      expect(await hitsOf.first(store.db, { subject: "nobody", limit: 10 })).toBeUndefined();
    });

    it("uses one argument in several places, and runs inside a transaction that rolls back", async () => {
      const bump = prepareQuery<{ subject: string; by: number }, never>(store.db, (db, { subject, by }) =>
        db
          .updateTable("rate_limit_windows")
          .set((eb) => ({ hits: eb("hits", "+", by) }))
          .where("subject", "=", subject)
          .where("window_started_at", "<", by),
      );
      const rolledBack = new Error("roll back");
      await expect(
        store.db.transaction().execute(async (trx) => {
          const result = await bump.run(trx, { subject: "b", by: 2 });
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

    it("takes a flat list of values by position, for a statement whose number of values varies", async () => {
      const windows = prepareQuery<unknown[], never>(store.db, (db, slots) =>
        db.insertInto("rate_limit_windows").values(
          [0, 1].map((row) => ({
            subject: slots[row * 2] as never,
            window_started_at: slots[row * 2 + 1] as never,
            hits: 1,
          })),
        ),
      );
      await windows.run(store.db, ["c", 7, "c", 8]);
      const rows = await store.db
        .selectFrom("rate_limit_windows")
        .select("window_started_at")
        .where("subject", "=", "c")
        .orderBy("window_started_at")
        .execute();
      expect(rows.map((r) => Number(r.window_started_at))).toEqual([7, 8]);
    });

    it("refuses, when prepared, a parameter used where a value cannot go", () => {
      expect(() =>
        prepareQuery<{ column: string }, unknown>(store.db, (db, { column }) =>
          db.selectFrom("rate_limit_windows").select(column as "hits"),
        ),
      ).toThrow(/reads parameter "column" but not as a value/);
    });

    it("refuses, when run, a missing parameter instead of binding it as NULL", async () => {
      const hitsOf = prepareQuery<{ subject: string }, { hits: number }>(store.db, (db, { subject }) =>
        db.selectFrom("rate_limit_windows").select("hits").where("subject", "=", subject),
      );
      await expect(hitsOf.rows(store.db, {} as { subject: string })).rejects.toThrow(
        /run without parameter "subject"/,
      );
    });
  });
}
