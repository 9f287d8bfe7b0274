// Cost: a key check is one indexed lookup, never a scan, never a slow hash; the rate limit is one upsert by key.
import { createHash, randomBytes } from "node:crypto";
import { type CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reservationSize } from "../../src/access/rate-limiter.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { explainPlan, keyCheckStatement, StatementLog } from "../support/statement-log.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const rateLimitUpsert =
  /^insert into "rate_limit_windows" .* on conflict \("subject", "window_started_at"\) do update/;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Cost: a key check on ${dialectTitle(dialect)}`, () => {
    const log = new StatementLog();
    let server: TestServer;
    let key: string;

    const explain = (query: CompiledQuery) => explainPlan(server.app.store, query);

    /** The statements the server ran for one request. */
    async function statementsOf(presentedKey: string): Promise<string[]> {
      log.clear();
      const response = await server.call("GET", "/v1/usage", {
        headers: { authorization: `Bearer ${presentedKey}` },
      });
      expect(response.status).toBeLessThan(500);
      return log.statements().map((q) => q.sql);
    }

    beforeAll(async () => {
      server = await startTestServer(dialect.name, {}, { wrapStore: (store) => log.watch(store) });
      // 2,000 other workspaces with a key and rate-limit windows each, and fresh statistics, so that a planner choosing a scan
      // over an index would do so on a table that is not trivially small.
      const db = server.app.store.db;
      const now = Date.now();
      for (let batch = 0; batch < 8; batch++) {
        const ids = Array.from({ length: 250 }, (_, i) => `ws_seed_${batch}_${i}`);
        await db
          .insertInto("workspaces")
          .values(
            ids.map((id) => ({
              id,
              name: id,
              plan_id: "pro",
              created_at: now,
              cycle_started_at: now,
              balance: 0,
              used_this_cycle: 0,
              hard_cap: null,
            })),
          )
          .execute();
        await db
          .insertInto("api_keys")
          .values(
            ids.map((id) => ({
              id: `key_${id}`,
              workspace_id: id,
              environment: "live" as const,
              label: "",
              note: "",
              key_hash: randomBytes(32).toString("hex"),
              last_four: "abcd",
              created_at: now,
              last_used_at: null,
              revoked_at: null,
            })),
          )
          .execute();
        // Their windows of this minute and the last, as busy workspaces leave them.
        const window = Math.floor(now / 60_000) * 60_000;
        await db
          .insertInto("rate_limit_windows")
          .values(
            ids.flatMap((id) => [
              { subject: `ws:${id}`, window_started_at: window, hits: 10 },
              { subject: `ws:${id}`, window_started_at: window - 60_000, hits: 10 },
            ]),
          )
          .execute();
      }
      ({ key } = await server.workspace("pro"));
      await sql`analyze`.execute(db);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("stores keys as SHA-256, a hash one request can afford", async () => {
      const rows = await server.app.store.db.selectFrom("api_keys").select("key_hash").execute();
      expect(rows.map((r) => r.key_hash)).toContain(createHash("sha256").update(key).digest("hex"));
    });

    it("checks a key with one lookup, and counts requests with one upsert per block of hits", async () => {
      const { key: fresh } = await server.workspace("pro");
      // The first request of a window reserves a block of hits (1% of the plan's 100,000 a minute).
      const first = await statementsOf(fresh);
      expect(first[0]).toMatch(keyCheckStatement);
      expect(first.filter((s) => rateLimitUpsert.test(s))).toHaveLength(1);
      expect(reservationSize(100_000)).toBe(1000);
      // The next ones spend the block: the key lookup is the only statement of access control.
      const statements = await statementsOf(fresh);
      expect(statements[0]).toMatch(keyCheckStatement);
      for (const statement of statements.slice(1)) {
        expect(statement).not.toMatch(/"api_keys"|"rate_limit_windows"/);
      }
    });

    it("records last_used_at with one more statement, only when it is due", async () => {
      const { key: fresh } = await server.workspace("pro");
      const statements = await statementsOf(fresh);
      expect(statements[0]).toMatch(keyCheckStatement);
      expect(statements[1]).toMatch(/^update "api_keys" set "last_used_at" = .* where "id" = /);
      expect(statements[2]).toMatch(rateLimitUpsert);
      const next = await statementsOf(fresh);
      expect(next.filter((s) => s.includes('"api_keys"'))).toHaveLength(1);
      expect(next.filter((s) => rateLimitUpsert.test(s))).toHaveLength(0);
    });

    it(
      dialect.name === "sqlite"
        ? "remembers a key until the database is written to, then looks it up again"
        : "looks the key up on every request, however often it comes",
      async () => {
        const { key: fresh } = await server.workspace("pro");
        await statementsOf(fresh); // writes last_used_at and reserves a block of rate-limit hits
        expect(await statementsOf(fresh)).toEqual(
          expect.arrayContaining([expect.stringMatching(keyCheckStatement)]),
        );
        const lookups = async () =>
          (await statementsOf(fresh)).filter((s) => keyCheckStatement.test(s)).length;
        expect(await lookups()).toBe(dialect.name === "sqlite" ? 0 : 1);
        expect(await lookups()).toBe(dialect.name === "sqlite" ? 0 : 1);
        // Any write at all, here a new saved schema, and the next request looks the key up again.
        const saved = await server.call("POST", "/v1/schemas", {
          key: fresh,
          body: { name: "any-write", schema: { columns: ["a"] } },
        });
        expect(saved.status).toBe(201);
        expect(await lookups()).toBe(1);
      },
    );

    it("looks the key up on every request when remembering is off (VIDROWS_REMEMBER_ANSWERS=0)", async () => {
      const ownLog = new StatementLog();
      const plain = await startTestServer(
        dialect.name,
        { rememberAnswers: false },
        { wrapStore: (store) => ownLog.watch(store) },
      );
      try {
        const { key: fresh } = await plain.workspace("pro");
        const lookups: number[] = [];
        for (let i = 0; i < 4; i++) {
          ownLog.clear();
          expect((await plain.call("GET", "/v1/usage", { key: fresh })).status).toBe(200);
          lookups.push(ownLog.statements().filter((q) => keyCheckStatement.test(q.sql)).length);
        }
        expect(lookups).toEqual([1, 1, 1, 1]);
      } finally {
        await plain.close();
      }
    });

    it("refuses an unknown key after one lookup, and a malformed one without any", async () => {
      // Beside the lookup, at most the upsert that reserves the address's next block of hits.
      const unknown = await statementsOf(`vr_live_${"x".repeat(32)}`);
      expect(unknown[0]).toMatch(keyCheckStatement);
      expect(unknown.slice(1).every((s) => rateLimitUpsert.test(s))).toBe(true);
      expect(unknown.length).toBeLessThanOrEqual(2);

      const malformed = await statementsOf("not-a-key");
      expect(malformed.every((s) => rateLimitUpsert.test(s))).toBe(true);
      expect(malformed.length).toBeLessThanOrEqual(1);
    });

    it("looks the key up through the unique index on key_hash, scanning nothing", async () => {
      await statementsOf(key);
      const lookup = log.statements().find((q) => keyCheckStatement.test(q.sql));
      expect(lookup).toBeDefined();
      // The log shows a prepared query's parameters as its slots; PostgreSQL's lookup also reads the
      // rate-limit window by its start, a number.
      const withWindow = (lookup as CompiledQuery).parameters.map((value) =>
        typeof value === "string" && value.endsWith(":windowStartedAt") ? Date.now() : value,
      );
      const plan = await explain({ ...(lookup as CompiledQuery), parameters: withWindow });
      const index = await uniqueIndexOn("api_keys", ["key_hash"]);
      if (dialect.name === "sqlite") {
        expect(plan).toContain(`SEARCH api_keys USING INDEX ${index} (key_hash=?)`);
        for (const step of plan) expect(step).toMatch(/^SEARCH /);
      } else {
        expect(plan.join("\n")).toContain(`Index Scan using ${index} on api_keys`);
        expect(plan.join("\n")).not.toMatch(/Seq Scan/);
      }
    });

    it("counts the request by the rate-limit table's primary key", async () => {
      const { key: fresh } = await server.workspace("pro");
      await statementsOf(fresh);
      const upsert = log.statements().find((q) => rateLimitUpsert.test(q.sql));
      expect(upsert).toBeDefined();
      const primaryKey = await primaryKeyIndexOf("rate_limit_windows");
      expect(primaryKey.columns).toEqual(["subject", "window_started_at"]);
      const plan = await explain(upsert as CompiledQuery);
      if (dialect.name === "sqlite") {
        // SQLite takes an upsert's conflict target only when a unique index covers exactly those
        // columns, and the statement's target is the primary key's columns; the plan scans nothing.
        for (const step of plan) expect(step).not.toMatch(/^SCAN /);
      } else {
        expect(plan.join("\n")).toContain(`Conflict Arbiter Indexes: ${primaryKey.name}`);
        expect(plan.join("\n")).not.toMatch(/Seq Scan/);
      }
    });

    /** The name of the unique index on exactly `columns` of `table`. */
    async function uniqueIndexOn(table: string, columns: string[]): Promise<string> {
      const db = server.app.store.db;
      if (dialect.name === "sqlite") {
        const indexes = await sql<{
          name: string;
          unique: number;
        }>`select * from pragma_index_list(${table})`.execute(db);
        for (const index of indexes.rows.filter((i) => i.unique === 1)) {
          const info = await sql<{
            name: string;
          }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(db);
          if (JSON.stringify(info.rows.map((c) => c.name)) === JSON.stringify(columns)) return index.name;
        }
        throw new Error(`No unique index on ${table} (${columns.join(", ")}).`);
      }
      const found = await sql<{ name: string }>`
        select i.relname as name
        from pg_index x
        join pg_class i on i.oid = x.indexrelid
        where x.indrelid = ${table}::regclass and x.indisunique
          and (select array_agg(a.attname order by k.ord)
               from unnest(x.indkey) with ordinality as k(attnum, ord)
               join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum) = ${columns}::name[]
      `.execute(db);
      const name = found.rows[0]?.name;
      if (!name) throw new Error(`No unique index on ${table} (${columns.join(", ")}).`);
      return name;
    }

    /** The primary key's index of `table` and its columns, in order. */
    async function primaryKeyIndexOf(table: string): Promise<{ name: string; columns: string[] }> {
      const db = server.app.store.db;
      if (dialect.name === "sqlite") {
        const indexes = await sql<{
          name: string;
          origin: string;
        }>`select * from pragma_index_list(${table})`.execute(db);
        const pk = indexes.rows.find((i) => i.origin === "pk");
        if (!pk) throw new Error(`${table} has no primary key index.`);
        const info = await sql<{
          name: string;
        }>`select name from pragma_index_info(${pk.name}) order by seqno`.execute(db);
        return { name: pk.name, columns: info.rows.map((c) => c.name) };
      }
      const found = await sql<{ name: string; columns: string[] }>`
        select i.relname as name,
          (select array_agg(a.attname::text order by k.ord)
           from unnest(x.indkey) with ordinality as k(attnum, ord)
           join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum) as columns
        from pg_index x
        join pg_class i on i.oid = x.indexrelid
        where x.indrelid = ${table}::regclass and x.indisprimary
      `.execute(db);
      const pk = found.rows[0];
      if (!pk) throw new Error(`${table} has no primary key.`);
      return pk;
    }
  });
}
