// Each endpoint of the real server under load, against the bare framework under the
// same load; on PostgreSQL also PostgreSQL's own CPU, the statements each request sends, and two API
// processes on one database against one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BenchDialect, freshDatabase, settleStatistics } from "../support/databases.js";
import {
  chosenEndpoints,
  type Endpoint,
  endpointNames,
  httpEndpoints,
  p99RatioTarget,
  submissionBody,
} from "./http-endpoints.js";
import { type LoadSpec, type MeasuredLoad, measureLoad, measureLoads, measurePaced } from "./load.js";
import { recordAnswer } from "./recorded-answer.js";
import { log, timed } from "../support/log.js";
import type { BenchOptions } from "../options.js";
import type { PacedTargetSummary } from "./paced-load.js";
import { startWireCounter, throughCounter, type WireCounter } from "../postgres/pg-wire-counter.js";
import { type PostgresCpuMeter, postgresCpuMeter } from "../postgres/postgres-cpu.js";
import { type ServerChild, startBareServer, startVidrowsServer } from "../support/processes.js";
import { alternatingRounds } from "./alternating-rounds.js";
import { type CpuArea, cpuSplit, profileAreas, readProfile } from "../support/profile-areas.js";
import { benchPlan, seedHistory, seedWorkspace } from "../support/seed.js";
import { type StatementCounts, countStatements } from "../postgres/statement-counts.js";

export interface EndpointResult {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  /** The least real/bare ratio the endpoint's target asks for, if it has one. */
  readonly targetRatio: number | null;
  /** The most p99 / bare p99 the endpoint may have, if it is judged on it. */
  readonly targetP99Ratio: number | null;
  readonly load: MeasuredLoad;
  /** The bare server under the same load (same method), measured right after this endpoint. */
  readonly bareLoad: MeasuredLoad;
  /** Real requests per second over the bare server's, for the same method. */
  readonly ratio: number;
  /** The bare server's CPU per request over the real one's: the ratio on a machine with nothing else to do. */
  readonly cpuRatio: number;
  /** real/bare by requests per second of each alternating pair (`ratio` is their median's). */
  readonly roundRatios: readonly number[];
  /** The endpoint's p99 over the bare run's (each timed to the µs; the bare p99 counted as at least 10 µs). */
  readonly p99Ratio: number;
  /** The same for p99.9: one request in a thousand, where a rare long turn of the loop shows first. */
  readonly p999Ratio: number;
  /** The endpoint and the bare server offered the same fixed rate at once, below what either can take. */
  readonly paced: PacedComparison;
  /** PostgreSQL only: what one request sends PostgreSQL, counted in a pass of its own. */
  readonly statementCounts?: StatementCounts;
  /** With --profile: the API process's CPU per request split by area, in µs (from its profile's shares). */
  readonly cpuByArea?: Record<CpuArea, number>;
}

/**
 * Latency at one offered rate, the endpoint's against the bare server's, both loaded at once. The rate
 * is a share (BENCH_PACED_PERCENT) of the endpoint's own measured requests per second: under the
 * saturating load, the p99 ratio follows from the throughput ratio (all 50 connections always wait:
 * mean latency = connections / throughput), so an endpoint at 0.12 of bare shows 8 times its latency
 * by arithmetic alone. Offered half of what it can take, its tail is its own.
 */
export interface PacedComparison {
  readonly ratePerSecond: number;
  readonly load: PacedTargetSummary;
  readonly bareLoad: PacedTargetSummary;
  /** How far the generator's sending fell behind its schedule, at worst. */
  readonly maxSendLagMs: number;
  /** The endpoint's p99 over the bare server's at the same rate: what the p99 target is judged on. */
  readonly p99Ratio: number;
  readonly p999Ratio: number;
}

/**
 * Nor more than this many requests a second to each of the two: the paced generator is one Node process
 * on the same two cores, and at the fast reads' half (10,000 a second and more) it fell behind its own
 * schedule.
 */
export const pacedCeiling = 1000;

/** Two API processes on one database, loaded at once, against one of them alone just before. */
export interface PairResult {
  readonly name: string;
  readonly one: MeasuredLoad;
  readonly pair: MeasuredLoad;
  /** The pair's requests per second over one process's. */
  readonly ratio: number;
}

export interface HttpSectionResult {
  readonly dialect: BenchDialect;
  readonly jobs: number;
  readonly videos: number;
  readonly seedSeconds: number;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Alternating pairs per endpoint (see alternating-rounds.ts). */
  readonly rounds: number;
  readonly logLevel: string;
  readonly bare: { readonly get: MeasuredLoad; readonly post: MeasuredLoad };
  readonly endpoints: EndpointResult[];
  /** PostgreSQL only (empty elsewhere). */
  readonly pairs: PairResult[];
  /** The real server's VmHWM at the end of the section, MB. */
  readonly serverPeakRssMb: number;
}

/** A throwaway folder with the plan file that lifts the rate limit out of the way. */
export function writePlanFile(): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "vidrows-bench-plans-"));
  const path = join(dir, "plans.json");
  writeFileSync(path, JSON.stringify(benchPlan.file));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function check(server: ServerChild, endpoint: Endpoint, headers: Record<string, string>) {
  const response = await fetch(`${server.url}${endpoint.path}`, {
    method: endpoint.method,
    headers,
    body: endpoint.body,
  });
  const text = await response.text();
  if (response.status !== endpoint.expectStatus) {
    throw new Error(
      `${endpoint.name} answered ${response.status}, not ${endpoint.expectStatus}: ${text.slice(0, 500)}`,
    );
  }
  return text;
}

const slugOf = (name: string) =>
  name
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

/** Server settings as one key: the same settings, the same server. Empty for the default. */
const settingsKey = (settings: Readonly<Record<string, string>>) =>
  Object.entries(settings)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join(",");

/** A server's name (its profile's too): the default's as it is, others' with their settings. */
const serverName = (base: string, key: string) => (key === "" ? base : `${base}-${slugOf(key)}`);

/** The API process's CPU per request split by area, from the profile it wrote as it stopped. */
function cpuByArea(
  profileDir: string,
  server: ServerChild,
  name: string,
  load: MeasuredLoad,
): Record<CpuArea, number> {
  // Leaves out start-up: module loading and schema compiling are no request's cost.
  const profile = readProfile(join(profileDir, `${name}.cpuprofile`));
  const busy = profileAreas(profile, server.readyAfterMs / 1000 + 0.2);
  return cpuSplit(
    busy,
    load.cpuMicrosPerRequest - load.systemCpuMicrosPerRequest,
    load.systemCpuMicrosPerRequest,
  );
}

export async function runHttpSection(
  dialect: BenchDialect,
  options: BenchOptions,
): Promise<HttpSectionResult> {
  const database = await freshDatabase(dialect, options.postgresUrl);
  const plans = writePlanFile();
  const servers: ServerChild[] = [];
  let postgres: PostgresCpuMeter | undefined;
  let counter: WireCounter | undefined;
  try {
    const { seconds: seedSeconds, value: seeded } = await timed(async () => {
      const workspace = await seedWorkspace(database.store);
      const history = await seedHistory(database.store, workspace, {
        jobs: options.jobs,
        maxVideosPerJob: 5,
        runningJobs: 50,
        notHandedOver: 500,
      });
      await settleStatistics(database);
      return { workspace, history };
    });
    log(
      `${dialect}: seeded ${options.jobs} jobs, ${seeded.history.videoCount} videos in ${seedSeconds.toFixed(1)} s`,
    );

    const profileDir = options.profile ? join(options.resultsDir, "profiles") : undefined;
    // Every measured server's event loop is watched (support/loop-delay.ts), the bare one's too.
    const bare = await startBareServer({ cpuProfileDir: profileDir, loopDelay: true });
    servers.push(bare);
    const startReal = (
      name: string,
      settings: Readonly<Record<string, string>> = {},
      databaseUrl = database.url,
      profiled = true,
    ) =>
      startVidrowsServer(
        {
          DATABASE_URL: databaseUrl,
          VIDROWS_PLANS: plans.path,
          // Submissions are accepted only when a model is configured; with --no-worker nothing calls it.
          VIDROWS_LLM_BASE_URL: "http://127.0.0.1:9/v1",
          LOG_LEVEL: options.logLevel,
          ...settings,
        },
        { cpuProfileDir: profiled ? profileDir : undefined, name, loopDelay: true },
      );
    // One server per set of settings: the default, the one with every query run (answers are
    // remembered between writes by default; the same reads with every query run show what a read
    // costs when the database is being written to all the time), one per switch turned off.
    const real = await startReal(`vidrows-http-${dialect}`);
    servers.push(real);
    const bySettings = new Map<string, ServerChild>([["", real]]);
    const serverFor = async (endpoint: Endpoint) => {
      const key = settingsKey(endpoint.settings);
      let server = bySettings.get(key);
      if (!server) {
        server = await startReal(serverName(`vidrows-http-${dialect}`, key), endpoint.settings);
        servers.push(server);
        bySettings.set(key, server);
      }
      return server;
    };

    const auth = { authorization: `Bearer ${seeded.workspace.apiKey}` };
    const jsonHeaders = { "content-type": "application/json" };
    const headersFor = (endpoint: Endpoint) =>
      endpoint.method === "POST" ? { ...auth, ...jsonHeaders } : auth;
    const postBody = submissionBody();
    const allEndpoints = httpEndpoints(dialect, seeded.history, postBody, options.switches);
    const endpoints = chosenEndpoints(allEndpoints, options.endpoints);
    const [jobRead, , search] = allEndpoints as [Endpoint, Endpoint, Endpoint];
    const readBody = await check(real, jobRead, auth);
    if (!readBody.includes('"rows":null'))
      throw new Error(`the read job still hands rows over: ${readBody.slice(0, 300)}`);
    const searchBody = await check(real, search, auth);
    log(
      `${dialect}: search ${seeded.history.searchPrefix} finds ${JSON.parse(searchBody).pagination.total} job(s)`,
    );
    for (const endpoint of endpoints) {
      if (endpoint.method === "GET") await check(await serverFor(endpoint), endpoint, auth);
    }

    // The rate limiter takes its budget in blocks of 1% of the limit, one block per request that finds
    // none left in its process; requests that arrive together each take one, so 50 connections on a
    // fresh process (or at a minute's turn) take half the budget at once, and the processes this section
    // starts within one minute exhaust it. Refused requests go on adding blocks, and on PostgreSQL the
    // counter overflowed (500s). Each load therefore starts from an empty count: what is measured is a
    // workspace within its limit, as the plan intends.
    const freshRateLimits = async () => {
      await database.store.db.deleteFrom("rate_limit_windows").execute();
    };
    // PostgreSQL: what each request sends, counted through a relay by servers of their own (the relay
    // adds a hop, so the timed loads below go straight to PostgreSQL).
    const counts = new Map<string, StatementCounts>();
    if (dialect === "postgres") {
      const target = new URL(database.url);
      counter = await startWireCounter({ host: target.hostname, port: Number(target.port || 5432) });
      const counted = new Map<string, ServerChild>();
      for (const endpoint of endpoints) {
        const key = settingsKey(endpoint.settings);
        const server =
          counted.get(key) ??
          (await startReal(
            serverName(`vidrows-http-${dialect}-counted`, key),
            endpoint.settings,
            throughCounter(database.url, counter),
            false,
          ));
        if (!counted.has(key)) {
          servers.push(server);
          counted.set(key, server);
        }
        await freshRateLimits();
        const perRequest = await countStatements(counter, async () => {
          await check(server, endpoint, headersFor(endpoint));
        });
        counts.set(endpoint.name, perRequest);
        log(
          `${dialect}: ${endpoint.name}: ${perRequest.statementsPerRequest.toFixed(2)} statements, ${perRequest.roundTripsPerRequest.toFixed(2)} round trips, ${perRequest.parsesPerRequest.toFixed(2)} parses per request`,
        );
      }
      for (const server of counted.values()) await server.stop();
      postgres = await postgresCpuMeter(options.postgresUrl as string, target.pathname.slice(1));
    }

    const load = async (
      server: ServerChild,
      spec: Omit<LoadSpec, "url" | "connections" | "durationSeconds">,
      path: string,
    ) => {
      if (server !== bare) await freshRateLimits();
      return measureLoad(
        {
          ...spec,
          url: `${server.url}${path}`,
          connections: options.connections,
          durationSeconds: options.durationSeconds,
        },
        server.pid,
        options.warmupSeconds,
        server === bare ? undefined : postgres,
        server.loopDelay,
      );
    };
    const bareGet = await load(bare, { method: "GET", headers: {} }, "/");
    log(
      `${dialect}: bare GET ${bareGet.requestsPerSecond.toFixed(0)} req/s, ${bareGet.cpuMicrosPerRequest.toFixed(0)} us CPU/req`,
    );
    const barePost = await load(bare, { method: "POST", headers: jsonHeaders, body: postBody }, "/");
    log(
      `${dialect}: bare POST ${barePost.requestsPerSecond.toFixed(0)} req/s, ${barePost.cpuMicrosPerRequest.toFixed(0)} us CPU/req`,
    );

    // Each endpoint is divided by a bare run taken right after it, not by the first one: on a shared
    // machine the load of other work drifts within a run, and neighbours in time see the same drift.
    const results: EndpointResult[] = [];
    for (const endpoint of endpoints) {
      // When profiling, each endpoint gets a server of its own, so each profile shows one endpoint's hot spots.
      const profileName = `vidrows-http-${dialect}-${slugOf(endpoint.name)}`;
      const shared = await serverFor(endpoint);
      const server = profileDir ? await startReal(profileName, endpoint.settings) : shared;
      if (server !== shared) servers.push(server);
      // The yardstick answers the endpoint's own bytes (bare-server.ts), asked the way the endpoint is.
      const request = { method: endpoint.method, headers: headersFor(endpoint), body: endpoint.body };
      await recordAnswer({ url: `${shared.url}${endpoint.path}`, ...request }, bare.url);
      // A profiled server is started for one load: one pair.
      const rounds = server === shared ? options.rounds : 1;
      const { measured, yardstick, ratios } = await alternatingRounds(
        rounds,
        () => load(server, request, endpoint.path),
        () => load(bare, request, "/recorded"),
      );
      if (measured.non2xx > 0 || measured.errors > 0) {
        log(
          `${dialect}: ${endpoint.name} answered ${JSON.stringify(measured.statusCounts)}; the server's last output:\n${server.output().slice(-3000)}`,
        );
      }
      if (server !== shared) await server.stop();
      // The endpoint and the bare server side by side, at the same rate (see paced-load.ts); with
      // --profile on the shared server, the profiled one being stopped.
      await freshRateLimits();
      const pacedRun = await measurePaced({
        targets: [
          {
            url: `${shared.url}${endpoint.path}`,
            method: endpoint.method,
            headers: headersFor(endpoint),
            body: endpoint.body,
          },
          { url: `${bare.url}/recorded`, ...request },
        ],
        ratePerSecond: Math.max(
          1,
          Math.min(pacedCeiling, Math.round(measured.requestsPerSecond * options.pacedShare)),
        ),
        durationSeconds: options.durationSeconds,
        connections: options.connections,
      });
      const [pacedLoad, pacedBare] = pacedRun.targets as [PacedTargetSummary, PacedTargetSummary];
      const paced: PacedComparison = {
        ratePerSecond: pacedRun.ratePerSecond,
        load: pacedLoad,
        bareLoad: pacedBare,
        maxSendLagMs: pacedRun.maxSendLagMs,
        p99Ratio: pacedLoad.latencyMs.p99 / Math.max(0.01, pacedBare.latencyMs.p99),
        p999Ratio: pacedLoad.latencyMs.p999 / Math.max(0.01, pacedBare.latencyMs.p999),
      };
      const ratio = measured.requestsPerSecond / yardstick.requestsPerSecond;
      const roundsNote =
        ratios.length > 1 ? ` (median of ${ratios.map((each) => each.toFixed(2)).join(", ")})` : "";
      const cpuRatio = yardstick.cpuMicrosPerRequest / measured.cpuMicrosPerRequest;
      const p99Ratio = measured.latencyMs.p99 / Math.max(0.01, yardstick.latencyMs.p99);
      const p999Ratio = measured.latencyMs.p999 / Math.max(0.01, yardstick.latencyMs.p999);
      const statementCounts = counts.get(endpoint.name);
      results.push({
        name: endpoint.name,
        method: endpoint.method,
        path: endpoint.path,
        targetRatio: endpoint.targetRatio,
        targetP99Ratio: endpoint.judgeP99 ? p99RatioTarget : null,
        load: measured,
        bareLoad: yardstick,
        ratio,
        cpuRatio,
        roundRatios: ratios,
        p99Ratio,
        p999Ratio,
        paced,
        ...(statementCounts && { statementCounts }),
        ...(server !== shared &&
          profileDir && {
            cpuByArea: cpuByArea(profileDir, server, profileName, measured),
          }),
      });
      const pgCpu =
        measured.postgresCpuMicrosPerRequest === undefined
          ? ""
          : `, PostgreSQL ${measured.postgresCpuMicrosPerRequest.toFixed(0)} us CPU/req (+${(measured.postgresBackgroundCpuMicrosPerRequest ?? 0).toFixed(0)} background)`;
      log(
        `${dialect}: ${endpoint.name} ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.latencyMs.p50} ms, p99 ${measured.latencyMs.p99} ms (${p99Ratio.toFixed(1)}x bare), p99.9 ${measured.latencyMs.p999} ms (${p999Ratio.toFixed(1)}x), loop delay p99 ${measured.loopDelay?.p99Ms ?? "-"} ms (bare ${yardstick.loopDelay?.p99Ms ?? "-"}), at ${paced.ratePerSecond} req/s p99 ${pacedLoad.latencyMs.p99} ms against bare ${pacedBare.latencyMs.p99} ms (${paced.p99Ratio.toFixed(1)}x, ${pacedLoad.failed} failed, sending lagged up to ${paced.maxSendLagMs} ms), ratio ${ratio.toFixed(2)}${roundsNote}, ${measured.cpuMicrosPerRequest.toFixed(0)} us CPU/req (ratio ${cpuRatio.toFixed(2)})${pgCpu}, non-2xx ${measured.non2xx}, errors ${measured.errors}`,
      );
    }

    const pairs: PairResult[] = [];
    if (dialect === "postgres") {
      const pairEndpoints = endpoints.filter(
        (endpoint) => endpoint.name === endpointNames.job || endpoint.name === endpointNames.submit,
      );
      if (pairEndpoints.length > 0) {
        const second = await startReal(`vidrows-http-${dialect}-second`, {}, database.url, false);
        servers.push(second);
        for (const endpoint of pairEndpoints) {
          pairs.push(
            await measurePair(
              endpoint,
              [real, second],
              headersFor(endpoint),
              options,
              postgres,
              freshRateLimits,
            ),
          );
        }
      }
    }

    const serverPeakRssMb = Math.max(...results.map((r) => r.load.highWaterRssMb));
    return {
      dialect,
      jobs: options.jobs,
      videos: seeded.history.videoCount,
      seedSeconds,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      rounds: options.rounds,
      logLevel: options.logLevel,
      bare: { get: bareGet, post: barePost },
      endpoints: results,
      pairs,
      serverPeakRssMb,
    };
  } finally {
    for (const server of servers) await server.stop();
    await counter?.close();
    await postgres?.close();
    plans.remove();
    await database.drop();
  }
}

/**
 * One API process under the section's load, then two on the same database, each under half of the
 * connections from a load generator of its own, at once: does a second process add requests per
 * second, or is the database (or the machine) what limits them?
 */
async function measurePair(
  endpoint: Endpoint,
  [first, second]: [ServerChild, ServerChild],
  headers: Record<string, string>,
  options: BenchOptions,
  postgres: PostgresCpuMeter | undefined,
  freshRateLimits: () => Promise<void>,
): Promise<PairResult> {
  const spec = (server: ServerChild, connections: number): LoadSpec => ({
    url: `${server.url}${endpoint.path}`,
    method: endpoint.method,
    headers,
    body: endpoint.body,
    connections,
    durationSeconds: options.durationSeconds,
  });
  await freshRateLimits();
  const one = await measureLoad(spec(first, options.connections), first.pid, options.warmupSeconds, postgres);
  const half = Math.max(1, Math.round(options.connections / 2));
  await freshRateLimits();
  const pair = await measureLoads(
    [
      { spec: spec(first, half), serverPid: first.pid },
      { spec: spec(second, options.connections - half), serverPid: second.pid },
    ],
    options.warmupSeconds,
    postgres,
  );
  const ratio = pair.requestsPerSecond / one.requestsPerSecond;
  log(
    `two API processes, ${endpoint.name}: one ${one.requestsPerSecond.toFixed(0)} req/s, two ${pair.requestsPerSecond.toFixed(0)} req/s (${ratio.toFixed(2)}), API CPU ${one.cpuMicrosPerRequest.toFixed(0)} / ${pair.cpuMicrosPerRequest.toFixed(0)} us/req, PostgreSQL ${(one.postgresCpuMicrosPerRequest ?? 0).toFixed(0)} / ${(pair.postgresCpuMicrosPerRequest ?? 0).toFixed(0)} us/req`,
  );
  return { name: endpoint.name, one, pair, ratio };
}
