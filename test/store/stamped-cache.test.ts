// Answers kept in memory only while nothing is written to what they read: the whole SQLite file, a PostgreSQL workspace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenedStore, openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { type ReadStamp, StampedCache } from "../../src/store/stamped-cache.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the stamped cache on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
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

    /** The read stamp a request on `store` would have: SQLite's, of the whole file; none on PostgreSQL. */
    const requestStamp = () => (store.dialect === "sqlite" ? store.readStampFromNow() : undefined);

    /** A cache over the number of rate-limit windows, and how often it really counted them. */
    function countingCache() {
      const cache = new StampedCache<number>(10);
      let computed = 0;
      const count = async () => {
        computed++;
        const rows = await store.db.selectFrom("rate_limit_windows").select("subject").execute();
        return { value: rows.length };
      };
      return {
        read: (key = "k", now?: number) => cache.get(key, count, { now, stamp: requestStamp() }),
        computed: () => computed,
      };
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
        const stamp = requestStamp();
        if (!stamp) throw new Error("SQLite stores have a read stamp");
        const atArrival = stamp.value();
        await write(other, "during-request");
        // Another process's commit after the request arrived: the request may answer as of its arrival.
        expect(stamp.value()).toBe(atArrival);
        await write(store, "own-during-request");
        expect(stamp.value()).not.toBe(atArrival);
        // The next request reads other writers anew.
        expect(requestStamp()?.value()).not.toBe(stamp.value());
      });

      it("keeps no value that asks not to be kept, and none past its time", async () => {
        const cache = new StampedCache<string>(10);
        let computed = 0;
        const once = () =>
          cache.get("k", async () => ({ value: `v${++computed}`, remember: false }), {
            stamp: requestStamp(),
          });
        expect([await once(), await once()]).toEqual(["v1", "v2"]);
        const timed = (now: number) =>
          cache.get("t", async () => ({ value: `t${++computed}`, until: 1000 }), {
            now,
            stamp: requestStamp(),
          });
        expect([await timed(10), await timed(999), await timed(1000)]).toEqual(["t3", "t3", "t4"]);
      });
    } else {
      it("remembers nothing without a request's stamp: PostgreSQL has none for the whole database", async () => {
        const cache = countingCache();
        const before = await cache.read();
        await write(other, "other-pg");
        expect(await cache.read()).toBe(before + 1);
        await cache.read();
        expect(cache.computed()).toBe(3);
      });
    }

    describe("with the request's stamps, per scope (PostgreSQL's workspace versions)", () => {
      /** A workspace's version as the test moves it, and the stamp a request would read of it. */
      function workspace(scope: string) {
        let version = 0;
        return {
          stamp: (): ReadStamp => {
            const read = String(version);
            return { scope, value: () => read };
          },
          write: () => void version++,
        };
      }
      /** A cache whose answers name their computation, with a count of computations. */
      function namingCache(capacity = 100) {
        const cache = new StampedCache<string>(capacity);
        let computed = 0;
        const read = (key: string, stamp: ReadStamp, during?: () => void) =>
          cache.get(
            key,
            async () => {
              during?.();
              return { value: `${key}#${++computed}` };
            },
            { stamp },
          );
        return { read, computed: () => computed };
      }

      it("answers from memory until the scope's own stamp moves, whatever other scopes do", async () => {
        const [a, b] = [workspace("ws_a"), workspace("ws_b")];
        const cache = namingCache();
        const first = await cache.read("job", a.stamp());
        const other = await cache.read("job", b.stamp());
        b.write();
        expect(await cache.read("job", b.stamp())).not.toBe(other);
        expect(await cache.read("job", a.stamp())).toBe(first);
        a.write();
        expect(await cache.read("job", a.stamp())).not.toBe(first);
        expect(cache.computed()).toBe(4);
      });

      it("serves nothing computed under a stamp that moved before the answer was in", async () => {
        const a = workspace("ws_a");
        const cache = namingCache();
        // The version was read as the request arrived; a write commits while its answer is computed.
        const computedDuringWrite = await cache.read("usage", a.stamp(), () => a.write());
        const next = await cache.read("usage", a.stamp());
        expect(next).not.toBe(computedDuringWrite);
        expect(await cache.read("usage", a.stamp())).toBe(next);
      });

      it("does not keep an answer of a request that read an older stamp than a later one did", async () => {
        const a = workspace("ws_a");
        const cache = namingCache();
        const early = a.stamp();
        a.write();
        const fresh = await cache.read("keys", a.stamp());
        expect(await cache.read("keys", a.stamp())).toBe(fresh);
        // The early request may answer as of its own arrival, but what it computed is not kept.
        const late = await cache.read("keys", early);
        expect(late).not.toBe(fresh);
        expect(await cache.read("keys", a.stamp())).not.toBe(late);
      });

      it("starts over past its capacity, counting the scopes that writes emptied", async () => {
        const cache = namingCache(3);
        const scopes = Array.from({ length: 4 }, (_, i) => workspace(`ws_${i}`));
        const kept = await cache.read("k", scopes[0]!.stamp());
        expect(await cache.read("k", scopes[0]!.stamp())).toBe(kept);
        for (const scope of scopes.slice(1)) await cache.read("k", scope.stamp());
        expect(await cache.read("k", scopes[0]!.stamp())).not.toBe(kept);
      });
    });
  });
}
