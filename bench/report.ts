// The run's results as JSON and as Markdown tables, each checked against its target (bench/README.md, "Targets").
import { promptCostTable, type PromptCostSectionResult } from "./prompt-cost/prompt-cost-section.js";
import type { ClientSectionResult } from "./postgres/client-section.js";
import type { HistorySectionResult } from "./http/history-section.js";
import { httpTables, peakRssTargetMb } from "./http/http-report.js";
import type { HttpSectionResult } from "./http/http-section.js";
import type { PipelineSectionResult } from "./pipeline/pipeline-section.js";
import type { ScaleRun, ScaleSectionResult } from "./pipeline/scale-section.js";
import type { SoakSectionResult } from "./soak/soak-section.js";
import { soakTable } from "./soak/soak-report.js";

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly node: string;
  /** The SQLite driver the measured processes ran on (store/sqlite/sqlite-driver.ts). */
  readonly sqliteDriver: string;
  readonly commit: string;
}

export interface BenchResults {
  readonly startedAt: string;
  readonly command: string;
  readonly machine: Machine;
  readonly settings: Record<string, unknown>;
  /** The machine's 1-minute load average as each section began: other work skews req/s, not CPU µs/req. */
  readonly loadAverages: { section: string; load1: number }[];
  readonly http: HttpSectionResult[];
  readonly pipeline: PipelineSectionResult[];
  readonly scale: ScaleSectionResult[];
  readonly history: HistorySectionResult[];
  readonly pgClients: ClientSectionResult[];
  readonly promptCost: PromptCostSectionResult[];
  readonly soak: SoakSectionResult[];
}

// The HTTP section's targets are in http-endpoints.ts and http-report.ts.
export const targets = {
  peakRssMb: peakRssTargetMb,
  videosPerSecond: { sqlite: 1500, postgres: 1000 },
  chunksPerSecond: 64,
  historyCostRatio: 2,
  twoWorkerRatio: 0.6,
};

const mark = (ok: boolean) => (ok ? "yes" : "**no**");
const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

function pipelineTable(section: PipelineSectionResult): string {
  const { instant, slowModel } = section;
  return [
    `### Pipeline on ${section.dialect}: one \`vidrows worker\` process, captions from a folder`,
    "",
    "| Measure | value | target | met |",
    "|---|---:|---:|:---:|",
    `| Instant model: videos settled per second (${instant.videos} videos, from worker start) | ${fixed(instant.videosPerSecond)} | >= ${targets.videosPerSecond[section.dialect]} | ${mark(instant.videosPerSecond >= targets.videosPerSecond[section.dialect] && instant.failed === 0)} |`,
    `| Instant model: videos per second, first to last settlement | ${fixed(instant.steadyVideosPerSecond)} | | |`,
    `| Instant model: worker CPU ms per video (all its threads, start-up included) | ${fixed(instant.workerCpuMsPerVideo, 2)} | | |`,
    `| Instant model: failed videos | ${instant.failed} | 0 | ${mark(instant.failed === 0)} |`,
    `| Instant model: worker peak RSS MB | ${fixed(instant.workerPeakRssMb)} | < ${targets.peakRssMb} | ${mark(instant.workerPeakRssMb < targets.peakRssMb)} |`,
    `| 1-s model, concurrency ${slowModel.modelConcurrency}: chunks per second (${slowModel.chunks} chunks of ${slowModel.videos} videos) | ${fixed(slowModel.chunksPerSecond, 1)} | about ${slowModel.modelConcurrency} | ${mark(slowModel.chunksPerSecond >= 0.9 * slowModel.modelConcurrency && slowModel.failed === 0)} |`,
    `| 1-s model: most model requests in flight | ${slowModel.maxInFlight} | ${slowModel.modelConcurrency} | ${mark(slowModel.maxInFlight === slowModel.modelConcurrency)} |`,
    ...section.switchedOff.flatMap((off) => {
      const [before, after] = off.defaultSteadyVideosPerSecond;
      const [cpuBefore, cpuAfter] = off.defaultWorkerCpuMsPerVideo;
      const share = off.instant.steadyVideosPerSecond / ((before + after) / 2);
      return [
        `| Instant model, ${off.switch} off (${off.variable}=0): videos per second, first to last settlement | ${fixed(off.instant.steadyVideosPerSecond)} (${fixed(share, 2)} of the default's ${fixed(before)} and ${fixed(after)} around it) | | |`,
        `| Instant model, ${off.switch} off: worker CPU ms per video | ${fixed(off.instant.workerCpuMsPerVideo, 2)} (default ${fixed(cpuBefore, 2)} and ${fixed(cpuAfter, 2)}) | | |`,
        `| Instant model, ${off.switch} off: failed videos | ${off.instant.failed} | 0 | ${mark(off.instant.failed === 0)} |`,
      ];
    }),
  ].join("\n");
}

function exactlyOnceCell(run: ScaleRun): string {
  if (run.settledOnce) return "yes";
  const e = run.exactlyOnce;
  return `**no**: ${e.notDone} not done, ${e.extraClaims} extra claims, ${e.extraModelRequests} extra model requests, ${e.charges} charges, ${e.videosProcessed} counted`;
}

function scaleTable(section: ScaleSectionResult): string {
  const { one, two } = section;
  const met = section.ratio <= targets.twoWorkerRatio && one.settledOnce && two.settledOnce;
  return [
    `### Scale-out on ${section.dialect}: ${section.videos} videos of ${section.workspaces} workspaces, a model that answers in ${section.modelDelayMs} ms, each worker at VIDROWS_WORKER_VIDEOS=${section.workerVideos} and VIDROWS_MODEL_CONCURRENCY=${section.modelConcurrency}`,
    "",
    "| Measure | one worker | two workers | ratio (two/one) | target | met |",
    "|---|---:|---:|---:|---:|:---:|",
    `| Seconds from spawning the workers to the last settlement | ${fixed(one.seconds, 2)} | ${fixed(two.seconds, 2)} | ${fixed(section.ratio, 2)} | <= ${targets.twoWorkerRatio} | ${mark(met)} |`,
    `| Videos per second | ${fixed(one.videosPerSecond)} | ${fixed(two.videosPerSecond)} | | | |`,
    `| Workers' CPU ms per video (all of them, start-up included) | ${fixed(one.workerCpuMsPerVideo, 2)} | ${fixed(two.workerCpuMsPerVideo, 2)} | | | |`,
    `| Every video settled, claimed, asked about and charged exactly once | ${exactlyOnceCell(one)} | ${exactlyOnceCell(two)} | | yes | ${mark(one.settledOnce && two.settledOnce)} |`,
  ].join("\n");
}

function historyTable(section: HistorySectionResult): string {
  const sizes = section.sizes;
  const head = sizes
    .map((s) => `${s.jobs.toLocaleString("en")} jobs: req/s | p50 ms | CPU µs/req`)
    .join(" | ");
  const lines = [
    `### Cost against history on ${section.dialect}`,
    "",
    `| Endpoint | ${head} | cost ratio (req/s) | by CPU | target | met |`,
    `|---|${sizes.map(() => "---:|---:|---:").join("|")}|---:|---:|---:|:---:|`,
  ];
  for (const comparison of section.comparisons) {
    const cells = sizes
      .map((s) => {
        const load = s.loads[comparison.name];
        return load
          ? `${fixed(load.requestsPerSecond)} | ${load.latencyMs.p50} | ${fixed(load.cpuMicrosPerRequest)}`
          : "- | - | -";
      })
      .join(" | ");
    lines.push(
      `| ${comparison.name} | ${cells} | ${fixed(comparison.costRatio, 2)} | ${fixed(comparison.cpuRatio, 2)} | <= ${targets.historyCostRatio} | ${mark(comparison.costRatio <= targets.historyCostRatio)} |`,
    );
  }
  lines.push(
    "",
    `Seeding: ${sizes.map((s) => `${s.jobs.toLocaleString("en")} jobs in ${fixed(s.seedSeconds, 1)} s`).join(", ")}.`,
  );
  return lines.join("\n");
}

function clientTable(section: ClientSectionResult): string {
  const lines = [
    `### PostgreSQL client libraries: a job read's 3 statements, ${section.concurrency} callers over a pool of ${section.poolSize}, ${section.seconds} s per run`,
    "",
    "| Client | statements/s | client CPU µs/statement | of which kernel | PostgreSQL CPU µs/statement | runs |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const variant of section.variants) {
    const runs = section.runs.filter((run) => run.variant === variant.variant);
    lines.push(
      `| ${variant.variant} | ${fixed(variant.statementsPerSecond)} | ${fixed(variant.clientCpuMicros, 1)} | ${fixed(variant.clientSystemCpuMicros, 1)} | ${fixed(variant.postgresCpuMicros, 1)} | ${runs.map((run) => fixed(run.statementsPerSecond)).join(", ")} |`,
    );
  }
  lines.push(
    "",
    "Each variant in a client process of its own (`bench/postgres/client-load.ts`), means over its runs (forwards, then backwards). kysely+postgres.js is `kysely-postgres-js`, which runs every query through postgres.js's `unsafe()`: unprepared, and with parameters it first asks the server for their types (a second round trip). pg prepares a named statement only when given a name; 'postgres.js, prepared' is `unsafe(text, values, { prepare: true })`.",
  );
  return lines.join("\n");
}

export function markdown(results: BenchResults): string {
  const m = results.machine;
  const parts = [
    `# vidrows benchmark, ${results.startedAt}`,
    "",
    `\`${results.command}\` on ${m.cpus} x ${m.cpuModel}, ${fixed(m.memoryGb, 1)} GB, Node ${m.node} (SQLite through ${m.sqliteDriver}), commit ${m.commit}. The load generator (autocannon) runs on the same machine, in its own process.`,
  ];
  const busiest = Math.max(0, ...results.loadAverages.map((l) => l.load1));
  parts.push(
    "",
    `Load average as sections began: ${results.loadAverages.map((l) => `${l.section} ${l.load1.toFixed(1)}`).join(", ")}.${busiest > m.cpus / 2 ? " **The machine was busy with other work: req/s, latencies and ratios by req/s are pessimistic; CPU µs per request is the steadier figure.**" : ""}`,
  );
  for (const section of results.promptCost) parts.push("", promptCostTable(section));
  for (const section of results.http) parts.push("", httpTables(section));
  for (const section of results.pipeline) parts.push("", pipelineTable(section));
  for (const section of results.scale) parts.push("", scaleTable(section));
  for (const section of results.history) parts.push("", historyTable(section));
  for (const section of results.pgClients) parts.push("", clientTable(section));
  for (const section of results.soak) parts.push("", soakTable(section));
  return `${parts.join("\n")}\n`;
}
