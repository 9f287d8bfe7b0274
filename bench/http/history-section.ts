// History: usage and a list page cost about the same with a short history and with a million jobs.
import { join } from "node:path";
import { type BenchDialect, freshDatabase, settleStatistics } from "../support/databases.js";
import { writePlanFile } from "./http-section.js";
import { type MeasuredLoad, measureLoad } from "./load.js";
import { log, timed } from "../support/log.js";
import type { BenchOptions } from "../options.js";
import { startVidrowsServer } from "../support/processes.js";
import { seedHistory, seedWorkspace } from "../support/seed.js";

const endpoints = [
  { name: "GET /v1/usage", path: "/v1/usage" },
  { name: "GET /v1?limit=25", path: "/v1?limit=25" },
  { name: "GET /v1?status=failed&limit=25", path: "/v1?status=failed&limit=25" },
];

export interface HistorySize {
  readonly jobs: number;
  readonly seedSeconds: number;
  readonly loads: Record<string, MeasuredLoad>;
}

export interface HistoryComparison {
  readonly name: string;
  readonly smallJobs: number;
  readonly largeJobs: number;
  /** Requests per second with the short history over those with the long one: the cost ratio (target <= 2). */
  readonly costRatio: number;
  readonly p50Ratio: number;
  /** The server's CPU per request with the long history over that with the short one. */
  readonly cpuRatio: number;
}

export interface HistorySectionResult {
  readonly dialect: BenchDialect;
  readonly sizes: HistorySize[];
  readonly comparisons: HistoryComparison[];
}

async function measureSize(dialect: BenchDialect, options: BenchOptions, jobs: number): Promise<HistorySize> {
  const database = await freshDatabase(dialect, options.postgresUrl);
  const plans = writePlanFile();
  try {
    const { seconds: seedSeconds, value: workspace } = await timed(async () => {
      const workspace = await seedWorkspace(database.store);
      // Jobs only, but for the newest hundred: reading a page never touches the videos.
      await seedHistory(database.store, workspace, {
        jobs,
        maxVideosPerJob: 3,
        runningJobs: 5,
        notHandedOver: 20,
        jobsWithVideos: Math.min(jobs, 100),
      });
      await settleStatistics(database);
      return workspace;
    });
    log(`${dialect}: seeded ${jobs} jobs in ${seedSeconds.toFixed(1)} s`);
    // Every request runs its queries: remembered answers (SQLite) would cost the same at any size and
    // so say nothing about the queries.
    const server = await startVidrowsServer(
      {
        DATABASE_URL: database.url,
        VIDROWS_PLANS: plans.path,
        LOG_LEVEL: options.logLevel,
        VIDROWS_REMEMBER_ANSWERS: "0",
      },
      {
        cpuProfileDir: options.profile ? join(options.resultsDir, "profiles") : undefined,
        name: `vidrows-history-${jobs}-${dialect}`,
      },
    );
    try {
      const loads: Record<string, MeasuredLoad> = {};
      for (const endpoint of endpoints) {
        const load = await measureLoad(
          {
            url: `${server.url}${endpoint.path}`,
            connections: options.connections,
            durationSeconds: options.durationSeconds,
            method: "GET",
            headers: { authorization: `Bearer ${workspace.apiKey}` },
          },
          server.pid,
          options.warmupSeconds,
        );
        if (load.ok === 0)
          throw new Error(
            `${endpoint.name} with ${jobs} jobs answered no 2xx: ${JSON.stringify(load.statusCounts)}`,
          );
        loads[endpoint.name] = load;
        log(
          `${dialect}: ${jobs} jobs, ${endpoint.name} ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.latencyMs.p50} ms, ${load.cpuMicrosPerRequest.toFixed(0)} us CPU/req`,
        );
      }
      return { jobs, seedSeconds, loads };
    } finally {
      await server.stop();
    }
  } finally {
    plans.remove();
    await database.drop();
  }
}

export async function runHistorySection(
  dialect: BenchDialect,
  options: BenchOptions,
): Promise<HistorySectionResult> {
  const sizes: HistorySize[] = [];
  for (const jobs of options.historySizes) sizes.push(await measureSize(dialect, options, jobs));
  const comparisons: HistoryComparison[] = [];
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  if (small && large && small !== large) {
    for (const endpoint of endpoints) {
      const a = small.loads[endpoint.name];
      const b = large.loads[endpoint.name];
      if (!a || !b) continue;
      comparisons.push({
        name: endpoint.name,
        smallJobs: small.jobs,
        largeJobs: large.jobs,
        costRatio: a.requestsPerSecond / b.requestsPerSecond,
        p50Ratio: b.latencyMs.p50 / Math.max(0.001, a.latencyMs.p50),
        cpuRatio: b.cpuMicrosPerRequest / a.cpuMicrosPerRequest,
      });
    }
  }
  return { dialect, sizes, comparisons };
}
