// The benchmark's counting relay (bench/postgres/pg-wire-counter.ts) against a real PostgreSQL: what it reports
// per request rests on reading the protocol right, so each kind of statement is counted as sent.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWireCounter, throughCounter, type WireCounter } from "../../bench/postgres/pg-wire-counter.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const postgres = dialects.find((d) => d.name === "postgres");

describe.skipIf(postgres?.skipReason !== null)(`the counting relay, ${dialectTitle(postgres!)}`, () => {
  let database: FreshDatabase;
  let counter: WireCounter;
  let client: pg.Client;

  beforeAll(async () => {
    database = await freshDatabase("postgres");
    const target = new URL(database.url);
    counter = await startWireCounter({ host: target.hostname, port: Number(target.port || 5432) });
    client = new pg.Client({ connectionString: throughCounter(database.url, counter) });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await counter?.close();
    await database?.drop();
  });

  it("counts statements, round trips and parses as node-postgres sends them", async () => {
    counter.take(); // The start-up is nobody's statement.
    await client.query("begin"); // No values: the simple protocol, one Query message.
    await client.query("select $1::int as n", [1]); // Unnamed: Parse, Bind, Describe, Execute, Sync.
    await client.query("select $1::int as n", [2]);
    await client.query({ name: "plus_one", text: "select $1::int + 1 as n", values: [1] }); // Parsed once,
    const named = await client.query({ name: "plus_one", text: "select $1::int + 1 as n", values: [2] }); // then only bound.
    await client.query("commit");
    expect(named.rows).toEqual([{ n: 3 }]);

    const counts = counter.take();
    expect(counts.statements).toBe(6);
    expect(counts.roundTrips).toBe(6);
    expect(counts.parses).toBe(3);
    expect(Object.fromEntries(counts.texts)).toEqual({
      begin: 1,
      "select $1::int as n": 2,
      "select $1::int + 1 as n": 2,
      commit: 1,
    });
    for (const text of counts.texts.keys()) expect(counts.answerMicros.get(text)).toBeGreaterThan(0);
    expect(counts.bytesSent).toBeGreaterThan(0);
    expect(counts.bytesReceived).toBeGreaterThan(0);
  });

  it("starts afresh after each take", async () => {
    counter.take();
    await client.query("select 1");
    expect(counter.take().statements).toBe(1);
    expect(counter.take().statements).toBe(0);
  });
});
