// Answers kept in memory only while nothing is written: on SQLite by any connection; never on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { StampedCache } from "../../src/store/stamped-cache.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the stamped cache on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: Store;
    // A second connection to the same database stands in for another process.
    let other: Store;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      other = openStore(database.target);
      await migrateToLatest(store);
    });
    afterAll(async () => {
      await other?.close();
      await store?.close();
      await database?.drop();
    });

    /** A cache over the number of rate-limit windows, and how often it really counted them. */
    function countingCache() {
      const cache = new StampedCache<number>(store, 10);
      let computed = 0;
      const count = async () => {
        computed++;
        const rows = await store.db.selectFrom("rate_limit_windows").select("subject").execute();
        return { value: rows.length };
      };
      return { read: (key = "k", now?: number) => cache.get(key, count, { now }), computed: () => computed };
    }

    const write = (on: Store, subject: string) =>
      on.db.insertInto("rate_limit_windows").values({ subject, window_started_at: 1, hits: 1 }).execute();

    if (dialect.name === "sqlite") {
      it("answers from memory until this connection writes, then counts again", async () => {
        const cache = countingCache();
        const before = await cache.read();
        expect(await cache.read()).toBe(before);
        expect(cache.computed()).toBe(1);
        await write(store, "own");
        expect(await cache.read()).toBe(before + 1);
        expect(cache.computed()).toBe(2);
      });

      it("sees another connection's write on the very next read", async () => {
        const cache = countingCache();
        const before = await cache.read();
        await cache.read();
        await write(other, "other");
        expect(await cache.read()).toBe(before + 1);
        expect(cache.computed()).toBe(2);
      });

      it("shares one reading of other writers within a request, still seeing its own writes", async () => {
        const requestStamp = store.writeStampFromNow?.();
        if (!requestStamp) throw new Error("SQLite stores have a write stamp");
        const atArrival = requestStamp();
        await write(other, "during-request");
        // Another process's commit after the request arrived: the request may answer as of its arrival.
        expect(requestStamp()).toBe(atArrival);
        await write(store, "own-during-request");
        expect(requestStamp()).not.toBe(atArrival);
        // The next request reads other writers anew.
        expect(store.writeStampFromNow?.()()).not.toBe(requestStamp());
      });

      it("keeps no value that asks not to be kept, and none past its time", async () => {
        const cache = new StampedCache<string>(store, 10);
        let computed = 0;
        const once = () => cache.get("k", async () => ({ value: `v${++computed}`, remember: false }));
        expect([await once(), await once()]).toEqual(["v1", "v2"]);
        const timed = (now: number) =>
          cache.get("t", async () => ({ value: `t${++computed}`, until: 1000 }), { now });
        expect([await timed(10), await timed(999), await timed(1000)]).toEqual(["t3", "t3", "t4"]);
      });
    } else {
      it("remembers nothing: every read counts, so another server's write is always seen", async () => {
        const cache = countingCache();
        const before = await cache.read();
        await write(other, "other-pg");
        expect(await cache.read()).toBe(before + 1);
        await cache.read();
        expect(cache.computed()).toBe(3);
      });
    }
  });
}
