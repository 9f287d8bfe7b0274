// `npm run bench`: the HTTP, pipeline, scale, history and prompt-cost benchmarks per database, and the
// PostgreSQL client libraries compared (pg-clients); the memory soak when asked for; written
// to bench/results/ as JSON and Markdown (latest.* and a copy stamped with the time).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { runClientSection } from "./postgres/client-section.js";
import { runHistorySection } from "./http/history-section.js";
import { runHttpSection } from "./http/http-section.js";
import { tailSummaryLine } from "./http/tail-report.js";
import { log } from "./support/log.js";
import { readOptions } from "./options.js";
import { runPipelineSection } from "./pipeline/pipeline-section.js";
import { runPromptCostSection } from "./prompt-cost/prompt-cost-section.js";
import { type BenchResults, markdown } from "./report.js";
import { runScaleSection } from "./pipeline/scale-section.js";
import { runSoakSection } from "./soak/soak-section.js";
import { chosenSqliteDriver } from "../src/store/sqlite/sqlite-driver.js";

function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], { encoding: "utf8" }).trim();
    return dirty ? `${head} (src modified)` : head;
  } catch {
    return "unknown";
  }
}

const options = readOptions(process.argv.slice(2));
mkdirSync(options.resultsDir, { recursive: true });
const startedAt = new Date().toISOString();
const results: BenchResults = {
  startedAt,
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    memoryGb: totalmem() / 2 ** 30,
    node: process.versions.node,
    // The measured processes get VIDROWS_SQLITE_DRIVER from this one (support/processes.ts), or choose alike.
    sqliteDriver: chosenSqliteDriver(),
    commit: commit(),
  },
  settings: { ...options, postgresUrl: options.postgresUrl ? "(set)" : undefined },
  loadAverages: [],
  http: [],
  pipeline: [],
  scale: [],
  history: [],
  pgClients: [],
  promptCost: [],
  soak: [],
};

function write() {
  const stamp = startedAt.replace(/[:.]/g, "-");
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const md = markdown(results);
  writeFileSync(join(options.resultsDir, "latest.json"), json);
  writeFileSync(join(options.resultsDir, "latest.md"), md);
  writeFileSync(join(options.resultsDir, `${stamp}.json`), json);
  writeFileSync(join(options.resultsDir, `${stamp}.md`), md);
  return md;
}

log(
  `sections ${options.sections.join(", ")} on ${options.dialects.join(", ")}${options.quick ? " (quick)" : ""}`,
);
const noteLoad = (section: string) => {
  const load1 = loadavg()[0] ?? 0;
  results.loadAverages.push({ section, load1 });
  log(`${section}: load average ${load1.toFixed(2)}`);
};
// The prompt's cost depends on no database: measured once.
if (options.sections.includes("prompt-cost")) {
  results.promptCost.push(runPromptCostSection());
  write();
}
for (const dialect of options.dialects) {
  if (options.sections.includes("http")) {
    noteLoad(`http/${dialect}`);
    results.http.push(await runHttpSection(dialect, options));
    write();
  }
  if (options.sections.includes("pipeline")) {
    noteLoad(`pipeline/${dialect}`);
    results.pipeline.push(await runPipelineSection(dialect, options));
    write();
  }
  if (options.sections.includes("scale")) {
    noteLoad(`scale/${dialect}`);
    results.scale.push(await runScaleSection(dialect, options));
    write();
  }
  if (options.sections.includes("history")) {
    noteLoad(`history/${dialect}`);
    results.history.push(await runHistorySection(dialect, options));
    write();
  }
  if (options.sections.includes("soak")) {
    noteLoad(`soak/${dialect}`);
    results.soak.push(await runSoakSection(dialect, options));
    write();
  }
  if (options.sections.includes("pg-clients") && dialect === "postgres") {
    noteLoad("pg-clients");
    results.pgClients.push(await runClientSection(options));
    write();
  }
}
process.stdout.write(write());
log(`written to ${join(options.resultsDir, "latest.md")} and latest.json`);
// Last, where a reader of the run's output looks first: each database's tail against the bare server.
for (const section of results.http) log(tailSummaryLine(section));
