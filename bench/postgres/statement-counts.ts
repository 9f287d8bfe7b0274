// The counting pass of the HTTP section on PostgreSQL: an endpoint's requests one at a time through
// the relay that counts what the API process sends PostgreSQL (pg-wire-counter.ts).
import type { WireCounter } from "./pg-wire-counter.js";

export interface StatementCounts {
  readonly requests: number;
  readonly statementsPerRequest: number;
  readonly roundTripsPerRequest: number;
  readonly parsesPerRequest: number;
  readonly bytesSentPerRequest: number;
  readonly bytesReceivedPerRequest: number;
  /**
   * Each statement's SQL (shortened), how often one request runs it, and how long PostgreSQL took to
   * answer it on average (µs, wall time, loopback hops included; requests one at a time).
   */
  readonly statements: { sql: string; perRequest: number; answerMicros: number }[];
}

/** Sends `request` `requests` times after a few unrecorded ones, and divides what the relay saw. */
export async function countStatements(
  counter: WireCounter,
  request: () => Promise<void>,
  requests = 100,
): Promise<StatementCounts> {
  // The first requests prepare the process's queries and open its pool's connection: not counted.
  for (let i = 0; i < 5; i++) await request();
  counter.take();
  for (let i = 0; i < requests; i++) await request();
  const counts = counter.take();
  const per = (n: number) => n / requests;
  return {
    requests,
    statementsPerRequest: per(counts.statements),
    roundTripsPerRequest: per(counts.roundTrips),
    parsesPerRequest: per(counts.parses),
    bytesSentPerRequest: per(counts.bytesSent),
    bytesReceivedPerRequest: per(counts.bytesReceived),
    statements: [...counts.texts]
      .sort((a, b) => b[1] - a[1])
      .map(([sql, count]) => ({
        sql: sql.replace(/\s+/g, " ").slice(0, 300),
        perRequest: per(count),
        answerMicros: (counts.answerMicros.get(sql) ?? 0) / count,
      })),
  };
}
