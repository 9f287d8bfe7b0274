// PostgreSQL's named statements: a prepared query is parsed and planned once per connection, and with
// VIDROWS_NAMED_STATEMENTS=0 every statement goes unnamed, with the same answers.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import { prepareQuery } from "../../src/store/prepared-query.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const postgres = dialects.find((d) => d.name === "postgres");

describe.skipIf(!postgres || postgres.skipReason !== null)(
  `named statements on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    let database: FreshDatabase;
    beforeAll(async () => {
      database = await freshDatabase("postgres");
    });
    afterAll(async () => {
      await database?.drop();
    });

    /**
     * Runs one prepared query three times on a store of one connection, then asks that connection which
     * statements it holds prepared (pg_prepared_statements is per connection).
     */
    async function preparedAfterRuns(namedStatements: boolean) {
      const store = openStore(database.target, { maxConnections: 1, namedStatements });
      try {
        const subject = `named ${namedStatements}`;
        const hitsOf = prepareQuery<{ subject: string }, { hits: number }>(store.db, (db, p) =>
          db.selectFrom("rate_limit_windows").select("hits").where("subject", "=", p.subject),
        );
        await store.db
          .insertInto("rate_limit_windows")
          .values({ subject, window_started_at: 1, hits: 7 })
          .execute();
        const answers = [];
        for (let run = 0; run < 3; run++) answers.push(await hitsOf.first(store.db, { subject }));
        const prepared = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements`.execute(store.db);
        return { answers, prepared: prepared.rows.map((row) => row.statement) };
      } finally {
        await store.close();
      }
    }

    it("prepares a prepared query once on its connection, under a name", async () => {
      const { answers, prepared } = await preparedAfterRuns(true);
      expect(answers).toEqual(Array(3).fill({ hits: 7 }));
      expect(prepared).toHaveLength(1);
      expect(prepared[0]).toMatch(/^select "hits" from "rate_limit_windows" where "subject" = \$1/);
    });

    it("prepares nothing with named statements off, and answers the same", async () => {
      const { answers, prepared } = await preparedAfterRuns(false);
      expect(answers).toEqual(Array(3).fill({ hits: 7 }));
      expect(prepared).toEqual([]);
    });
  },
);
