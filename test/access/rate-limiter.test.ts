// The rate limiter's counting in the store: exact for small limits, in blocks for large ones, never over.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteAccessCheck } from "../../src/access/sqlite-access-check.js";
import {
  RateLimiter,
  reservationSize,
  type WindowHits,
  windowStartOf,
} from "../../src/access/rate-limiter.js";
import { type OpenedStore, openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`rate limiter on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let stores: OpenedStore[];
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      // Two stores stand in for two processes: each limiter keeps its own reservations.
      stores = [openStore(database.target), openStore(database.target)];
      await migrateToLatest(stores[0] as Store);
    });
    afterAll(async () => {
      for (const store of stores ?? []) await store.close();
      await database?.drop();
    });

    // A moment early in a window, so that a run never straddles two windows.
    const at = Math.floor(Date.now() / 60_000) * 60_000 + 1000;

    /** The hits the store holds reserved for `subject` in the window of `at`. */
    async function storedHits(subject: string): Promise<number> {
      const row = await (stores[0] as Store).db
        .selectFrom("rate_limit_windows")
        .select("hits")
        .where("subject", "=", subject)
        .where("window_started_at", "=", windowStartOf(at))
        .executeTakeFirst();
      return Number(row?.hits ?? 0);
    }

    it("counts a small limit hit by hit: the 11th of 10 is refused, with remaining counting down", async () => {
      const limiter = new RateLimiter(stores[0] as Store);
      const decisions = [];
      for (let i = 0; i < 11; i++) decisions.push(await limiter.hit("ws:small", 10, at));
      expect(decisions.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
      expect(decisions.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
      expect(decisions[10]?.resetSeconds).toBe(59);
    });

    it("never lets more than the limit through two processes, and wastes at most a block each", async () => {
      const [a, b] = [new RateLimiter(stores[0] as Store), new RateLimiter(stores[1] as Store)];
      const limit = 1000;
      expect(reservationSize(limit)).toBe(10);
      let allowed = 0;
      for (let round = 0; round < 60; round++) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, i) => ((round + i) % 2 === 0 ? a : b).hit("ws:large", limit, at)),
        );
        allowed += batch.filter((d) => d.allowed).length;
      }
      expect(allowed).toBeLessThanOrEqual(limit);
      expect(allowed).toBeGreaterThanOrEqual(limit - 2 * reservationSize(limit));
    });

    it("tells the workspace's remaining budget on one process, exactly, across its blocks", async () => {
      const limiter = new RateLimiter(stores[0] as Store);
      const limit = 600; // the Pro plan's: blocks of 6 hits
      const remaining = [];
      for (let i = 0; i < 20; i++) remaining.push((await limiter.hit("ws:pro", limit, at)).remaining);
      expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => limit - 1 - i));
    });

    it("tells it within a block of the truth on two processes sharing the load, exactly for small limits", async () => {
      const [a, b] = [new RateLimiter(stores[0] as Store), new RateLimiter(stores[1] as Store)];
      const limit = 100; // blocks of 1 hit: every answer is counted in the store, so exact
      const larger = 1000;
      const block = reservationSize(larger);
      let allowed = 0;
      for (let i = 0; i < 60; i++) {
        const decision = await (i % 2 === 0 ? a : b).hit("ws:two-large", larger, at);
        allowed++;
        expect(Math.abs(decision.remaining - (larger - allowed))).toBeLessThanOrEqual(block);
      }
      const exact = [];
      for (let i = 0; i < 6; i++)
        exact.push((await (i % 2 === 0 ? a : b).hit("ws:two-small", limit, at)).remaining);
      expect(exact).toEqual([99, 98, 97, 96, 95, 94]);
    });

    it("never tells more than the truth on two processes, when each request learns the window's reserved hits", async () => {
      const [a, b] = [new RateLimiter(stores[0] as Store), new RateLimiter(stores[1] as Store)];
      const limit = 600; // blocks of 6
      const block = reservationSize(limit);
      const subject = "ws:two-seen";
      // Each process's access check, for SQLite: it reads the count again when the other has committed.
      const sqliteChecks = stores.map((store) =>
        store.dialect === "sqlite" ? new SqliteAccessCheck(store, new Map()) : undefined,
      );
      /** What a request learns on the way in: PostgreSQL's access statement reads the reserved hits with the key. */
      const learnt = async (process: number): Promise<WindowHits> => {
        const sqliteCheck = sqliteChecks[process];
        if (sqliteCheck) return (await sqliteCheck.admit(undefined, at)).windowHits;
        const row = await (stores[process] as Store).db
          .selectFrom("rate_limit_windows")
          .select("hits")
          .where("subject", "=", subject)
          .where("window_started_at", "=", windowStartOf(at))
          .executeTakeFirst();
        return () => Number(row?.hits ?? 0);
      };
      let made = 0;
      // Uneven turns, so that each process's block runs out at other moments than the other's.
      const turns = [
        0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 0,
      ];
      for (const process of turns) {
        const decision = await [a, b][process]!.hit(subject, limit, at, await learnt(process));
        made++;
        const truth = limit - made;
        expect(decision.remaining).toBeLessThanOrEqual(truth);
        expect(decision.remaining).toBeGreaterThanOrEqual(truth - (block - 1));
      }
    });

    it("reserves one block at a time for requests that arrive together, not one block each", async () => {
      const limiter = new RateLimiter(stores[0] as Store);
      const limit = 10_000;
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () => limiter.hit("ws:together", limit, at)),
      );
      expect(decisions.every((d) => d.allowed)).toBe(true);
      // 50 requests fit in one block of 100: the store holds that one block, not 50 of them.
      expect(await storedHits("ws:together")).toBe(reservationSize(limit));
      expect(Math.min(...decisions.map((d) => d.remaining))).toBe(limit - 50);
    });

    it("stops counting once the budget is spent: refused requests write nothing, and the count stays bounded", async () => {
      const [a, b] = [new RateLimiter(stores[0] as Store), new RateLimiter(stores[1] as Store)];
      const limit = 500;
      let allowed = 0;
      for (let round = 0; round < 40; round++) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).hit("ws:flood", limit, at)),
        );
        allowed += batch.filter((d) => d.allowed).length;
      }
      expect(allowed).toBeLessThanOrEqual(limit);
      // 2,000 requests against 500: the count never runs past the limit by more than a block, however
      // many are refused (it used to grow by a block per refusal until PostgreSQL's integer overflowed).
      const counted = await storedHits("ws:flood");
      expect(counted).toBeLessThanOrEqual(limit + reservationSize(limit));
      // Both processes know the window is spent: more refusals leave the store untouched.
      for (const limiter of [a, b]) expect((await limiter.hit("ws:flood", limit, at)).allowed).toBe(false);
      expect(await storedHits("ws:flood")).toBe(counted);
    });

    it("keeps a window's count bounded when every refusal reaches the store (a fresh process each time)", async () => {
      const limit = 3;
      for (let i = 0; i < 10; i++) await new RateLimiter(stores[i % 2] as Store).hit("ws:fresh", limit, at);
      expect(await storedHits("ws:fresh")).toBe(limit + reservationSize(limit));
    });

    it("starts each window afresh", async () => {
      const limiter = new RateLimiter(stores[0] as Store);
      expect((await limiter.hit("ws:renewed", 1, at)).allowed).toBe(true);
      expect((await limiter.hit("ws:renewed", 1, at)).allowed).toBe(false);
      expect((await limiter.hit("ws:renewed", 1, at + 60_000)).allowed).toBe(true);
    });

    /** `store` whose `insertInto` throws `error` while `refused()` says so (the limiter's only write). */
    function refusingWrites(store: Store, error: Error, refused: () => boolean = () => true): Store {
      const db = new Proxy(store.db, {
        get(target, property) {
          if (property === "insertInto" && refused()) {
            return () => {
              throw error;
            };
          }
          // Kysely's methods read private fields: they must run on the real instance.
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      return { ...store, db } as Store;
    }

    it("counts in the process while the store cannot be written: requests go on, never past the limit", async () => {
      let full = false;
      const diskFull = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      const limiter = new RateLimiter(refusingWrites(stores[0] as Store, diskFull, () => full));
      const limit = 10;
      for (let i = 0; i < 3; i++) expect((await limiter.hit("ws:full", limit, at)).allowed).toBe(true);
      expect(await storedHits("ws:full")).toBe(3);
      full = true;
      const during = [];
      for (let i = 0; i < 9; i++) during.push(await limiter.hit("ws:full", limit, at));
      expect(during.map((d) => d.allowed)).toEqual([...Array(7).fill(true), false, false]);
      expect(during.map((d) => d.remaining)).toEqual([6, 5, 4, 3, 2, 1, 0, 0, 0]);
      expect(await storedHits("ws:full")).toBe(3);
      // Writable again within the window: the store counts again, and the hits counted in the process
      // still count, so the limit holds.
      full = false;
      expect((await limiter.hit("ws:full", limit, at)).allowed).toBe(false);
      // A new window on a full disk starts with the whole budget, as a new window does.
      full = true;
      expect((await limiter.hit("ws:full", limit, at + 60_000)).allowed).toBe(true);
    });

    it("still fails on an error that is not an outage", async () => {
      const broken = Object.assign(new Error("no such table: rate_limit_windows"), { code: "SQLITE_ERROR" });
      const limiter = new RateLimiter(refusingWrites(stores[0] as Store, broken));
      await expect(limiter.hit("ws:broken", 10, at)).rejects.toBe(broken);
    });
  });
}
