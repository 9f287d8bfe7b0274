// The HTTP section's tables: each endpoint against the bare server, with PostgreSQL's own CPU and the
// statements per request where the database is PostgreSQL; two API processes against one; and, with
// --profile, where the API process's CPU per request went.
import type { HttpSectionResult } from "./http-section.js";
import type { MeasuredLoad } from "./load.js";
import { cpuAreaNames } from "../support/profile-areas.js";
import { tailTable } from "./tail-report.js";

/** Each process's resident memory must stay under this, MB. */
export const peakRssTargetMb = 300;

const mark = (ok: boolean) => (ok ? "yes" : "**no**");
const fixed = (n: number | undefined, digits = 0) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : "-";

function endpointTable(section: HttpSectionResult): string {
  const onPostgres = section.dialect === "postgres";
  const pgHead = onPostgres
    ? " PostgreSQL CPU µs/req | PG background µs/req | statements/req | round trips/req |"
    : "";
  const pgAlign = onPostgres ? "---:|---:|---:|---:|" : "";
  const lines = [
    `### HTTP on ${section.dialect}: ${section.jobs.toLocaleString("en")} jobs, ${section.videos.toLocaleString("en")} videos, ${section.connections} connections, ${section.durationSeconds} s each, ${section.rounds === 1 ? "one pair" : `median of ${section.rounds} alternating pairs`} per endpoint, LOG_LEVEL=${section.logLevel}`,
    "",
    `| Endpoint | req/s | bare req/s | real/bare | p50 ms | p99 ms | bare p99 ms | p99 / bare p99 | paced req/s | paced p99 ms | bare paced p99 ms | paced p99 / bare | peak RSS MB | target | met | CPU µs/req | of which kernel | bare CPU µs/req | real/bare by CPU |${pgHead}`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|---:|---:|---:|---:|${pgAlign}`,
  ];
  const pgCells = (load: MeasuredLoad, statements?: number, roundTrips?: number) =>
    onPostgres
      ? ` ${fixed(load.postgresCpuMicrosPerRequest)} | ${fixed(load.postgresBackgroundCpuMicrosPerRequest)} | ${fixed(statements, 1)} | ${fixed(roundTrips, 1)} |`
      : "";
  const bareRow = (name: string, load: MeasuredLoad) =>
    `| ${name} (bare Fastify, first run) | ${fixed(load.requestsPerSecond)} | | 1.00 | ${load.latencyMs.p50} | ${load.latencyMs.p99} | | | | | | | ${fixed(load.peakRssMb)} | | | ${fixed(load.cpuMicrosPerRequest)} | ${fixed(load.systemCpuMicrosPerRequest)} | | 1.00 |${onPostgres ? " | | | |" : ""}`;
  lines.push(bareRow("GET /", section.bare.get), bareRow("POST / (same body)", section.bare.post));
  for (const endpoint of section.endpoints) {
    const load = endpoint.load;
    const ratioOk = endpoint.targetRatio === null || endpoint.ratio >= endpoint.targetRatio;
    const p99Ok = endpoint.targetP99Ratio === null || endpoint.paced.p99Ratio <= endpoint.targetP99Ratio;
    const rssOk = load.peakRssMb < peakRssTargetMb;
    const clean = load.non2xx === 0 && load.errors === 0;
    const target = [
      endpoint.targetRatio === null ? "" : `>= ${endpoint.targetRatio}`,
      endpoint.targetP99Ratio === null ? "" : `paced p99 <= ${endpoint.targetP99Ratio}x`,
    ]
      .filter(Boolean)
      .join(", ");
    const judged = endpoint.targetRatio !== null || endpoint.targetP99Ratio !== null;
    const counts = endpoint.statementCounts;
    lines.push(
      `| ${endpoint.name}${clean ? "" : ` (non-2xx ${load.non2xx}, errors ${load.errors})`} | ${fixed(load.requestsPerSecond)} | ${fixed(endpoint.bareLoad.requestsPerSecond)} | ${fixed(endpoint.ratio, 2)} | ${load.latencyMs.p50} | ${load.latencyMs.p99} | ${endpoint.bareLoad.latencyMs.p99} | ${fixed(endpoint.p99Ratio, 1)} | ${fixed(endpoint.paced.ratePerSecond)} | ${fixed(endpoint.paced.load.latencyMs.p99, 2)} | ${fixed(endpoint.paced.bareLoad.latencyMs.p99, 2)} | ${fixed(endpoint.paced.p99Ratio, 1)} | ${fixed(load.peakRssMb)} | ${target} | ${judged ? mark(ratioOk && p99Ok && rssOk && clean) : ""} | ${fixed(load.cpuMicrosPerRequest)} | ${fixed(load.systemCpuMicrosPerRequest)} | ${fixed(endpoint.bareLoad.cpuMicrosPerRequest)} | ${fixed(endpoint.cpuRatio, 2)} |${pgCells(load, counts?.statementsPerRequest, counts?.roundTripsPerRequest)}`,
    );
  }
  lines.push(
    "",
    `Server peak RSS (VmHWM) over the section: ${fixed(section.serverPeakRssMb)} MB (target < ${peakRssTargetMb}: ${mark(section.serverPeakRssMb < peakRssTargetMb)}). Seeding took ${fixed(section.seedSeconds, 1)} s. p99 / bare p99: under the saturating load of all connections, each request timed to the µs (\`bench/http/load-client.ts\`). Paced: the endpoint and the bare server side by side, each offered half the endpoint's measured requests per second (at most 1,000) on a fixed schedule, each request timed in microseconds from when it was sent (\`bench/http/paced-load.ts\`); the p99 target is judged there, because under the saturating load the p99 ratio follows from the throughput ratio.`,
  );
  if (section.endpoints.some((endpoint) => endpoint.name.endsWith(" off")))
    lines.push(
      "",
      'Rows "..., <mechanism> off": the same endpoint on a server with that mechanism\'s switch at 0 (docs/performance.md), measured in this run beside the default; no target.',
    );
  if (onPostgres)
    lines.push(
      "",
      "PostgreSQL CPU: utime + stime of the backends connected to the benchmark's database, over the measured window, per request; background: the server's WAL writer, checkpointer, background writer and autovacuum launcher, which serve every database on the server. Statements and round trips: counted in a pass of their own, one request at a time through a relay that reads the protocol (`bench/postgres/pg-wire-counter.ts`).",
    );
  return lines.join("\n");
}

function pairTable(section: HttpSectionResult): string {
  const lines = [
    `### Two API processes on one ${section.dialect} database, against one`,
    "",
    "| Endpoint | one: req/s | two: req/s | two / one | one: p99 ms | two: p99 ms | one: API CPU µs/req | two: API CPU µs/req | one: PostgreSQL CPU µs/req | two: PostgreSQL CPU µs/req |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const { name, one, pair, ratio } of section.pairs) {
    lines.push(
      `| ${name} | ${fixed(one.requestsPerSecond)} | ${fixed(pair.requestsPerSecond)} | ${fixed(ratio, 2)} | ${one.latencyMs.p99} | ${pair.latencyMs.p99} | ${fixed(one.cpuMicrosPerRequest)} | ${fixed(pair.cpuMicrosPerRequest)} | ${fixed(one.postgresCpuMicrosPerRequest)} | ${fixed(pair.postgresCpuMicrosPerRequest)} |`,
    );
  }
  lines.push(
    "",
    `One process under all ${section.connections} connections, then both at once under half each (each from its own load generator); p99 of the two is the worse of theirs.`,
  );
  return lines.join("\n");
}

function areaTable(section: HttpSectionResult): string | undefined {
  const profiled = section.endpoints.filter((endpoint) => endpoint.cpuByArea !== undefined);
  if (profiled.length === 0) return undefined;
  const areas = cpuAreaNames.filter((area) => profiled.some((e) => (e.cpuByArea?.[area] ?? 0) >= 0.5));
  return [
    `### Where the API process's CPU per request went on ${section.dialect} (µs, from --cpu-prof)`,
    "",
    `| Endpoint | CPU µs/req | ${areas.join(" | ")} |`,
    `|---|---:|${areas.map(() => "---:").join("|")}|`,
    ...profiled.map(
      (e) =>
        `| ${e.name} | ${fixed(e.load.cpuMicrosPerRequest)} | ${areas.map((area) => fixed(e.cpuByArea?.[area])).join(" | ")} |`,
    ),
    "",
    "Each endpoint's measured CPU per request: the kernel's part (system time, from /proc) as it is, the user part split by the shares of the profile's busy samples outside socket writes (start-up left out), each sample going to the innermost frame of a known package; Node's own code and native functions count for the library that called them. The profiler samples wall time, so a socket write that loses the CPU to the process it woke looks long in a profile; it is not CPU (`bench/support/profile-areas.ts`).",
  ].join("\n");
}

function statementTable(section: HttpSectionResult): string | undefined {
  const counted = section.endpoints.filter(
    (e) => e.statementCounts !== undefined && !e.name.endsWith("queries run"),
  );
  if (counted.length === 0) return undefined;
  const lines = [
    `### What each request sends ${section.dialect}`,
    "",
    "| Endpoint | statement (shortened) | per request | answered in µs |",
    "|---|---|---:|---:|",
  ];
  for (const endpoint of counted) {
    for (const statement of endpoint.statementCounts?.statements ?? []) {
      const sql = statement.sql.length > 120 ? `${statement.sql.slice(0, 117)}...` : statement.sql;
      lines.push(
        `| ${endpoint.name} | \`${sql.replace(/\|/g, "\\|")}\` | ${fixed(statement.perRequest, 2)} | ${fixed(statement.answerMicros)} |`,
      );
    }
  }
  lines.push(
    "",
    "Requests one at a time through the counting relay; answered in: from the round trip's last message leaving the relay to PostgreSQL's ReadyForQuery reaching it (the server's work and two loopback hops, wall time).",
  );
  return lines.join("\n");
}

export function httpTables(section: HttpSectionResult): string {
  const parts = [endpointTable(section), tailTable(section)];
  const statements = statementTable(section);
  if (statements) parts.push(statements);
  if (section.pairs.length > 0) parts.push(pairTable(section));
  const areas = areaTable(section);
  if (areas) parts.push(areas);
  return parts.join("\n\n");
}
