// Soak: one real API process under a steady mix of requests for a long while (30 minutes by default),
// its memory sampled every few seconds: does it level off, and where? Then a minute idle, to see what
// it gives back.
import { type BenchDialect, freshDatabase } from "../support/databases.js";
import { writePlanFile } from "../http/http-section.js";
import { log } from "../support/log.js";
import type { BenchOptions } from "../options.js";
import { memoryOf, startVidrowsServer } from "../support/processes.js";
import { seedWorkspace } from "../support/seed.js";
import { type Levelling, levelling, type MemorySample } from "./levelling.js";
import { readHeap } from "./memory-probe.js";
import { type SoakLoadTally, startSoakLoad } from "./soak-load.js";

export interface SoakSectionResult {
  readonly dialect: BenchDialect;
  readonly minutes: number;
  readonly requestsPerSecondAsked: number;
  readonly requestsPerSecondSent: number;
  readonly tally: SoakLoadTally;
  readonly levelling: Levelling;
  /** The JavaScript heap in use at the first and last samples that have one, MB. */
  readonly heapStartMb: number | undefined;
  readonly heapEndMb: number | undefined;
  /** RSS after the load stopped and the process sat idle for `idleSeconds`, MB. */
  readonly idleRssMb: number;
  readonly idleSeconds: number;
  /** The SQLite file (with its WAL) or PostgreSQL database at the end, MB. */
  readonly databaseMb: number;
  readonly samples: MemorySample[];
}

const mb = (bytes: number) => bytes / 2 ** 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sample(pid: number, process: Parameters<typeof readHeap>[0], atSeconds: number) {
  const memory = memoryOf(pid);
  const heap = await readHeap(process);
  return {
    atSeconds,
    rssMb: memory.rssMb,
    anonMb: memory.anonMb,
    fileMb: memory.fileMb,
    ...(heap && { heapUsedMb: mb(heap.heapUsed) }),
  } satisfies MemorySample;
}

export async function runSoakSection(
  dialect: BenchDialect,
  options: BenchOptions,
): Promise<SoakSectionResult> {
  const database = await freshDatabase(dialect, options.postgresUrl);
  const plans = writePlanFile();
  try {
    const workspace = await seedWorkspace(database.store);
    const server = await startVidrowsServer(
      {
        DATABASE_URL: database.url,
        VIDROWS_PLANS: plans.path,
        LOG_LEVEL: "warn",
        // Submissions need a model configured; no worker runs here, so it is never called.
        VIDROWS_LLM_BASE_URL: "http://127.0.0.1:9/v1",
      },
      { name: `vidrows-soak-${dialect}`, memoryProbe: true },
    );
    try {
      const seconds = options.soakMinutes * 60;
      const load = startSoakLoad({
        url: server.url,
        apiKey: workspace.apiKey,
        requestsPerSecond: options.soakRate,
        connections: options.soakConnections,
      });
      const startedAt = Date.now();
      const elapsed = () => (Date.now() - startedAt) / 1000;
      const samples: MemorySample[] = [await sample(server.pid, server.process, 0)];
      let lastLog = 0;
      while (elapsed() < seconds) {
        await sleep(Math.min(options.soakSampleSeconds * 1000, Math.max(0, seconds - elapsed()) * 1000));
        const taken = await sample(server.pid, server.process, elapsed());
        samples.push(taken);
        if (server.process.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
        if (taken.atSeconds - lastLog >= 60) {
          lastLog = taken.atSeconds;
          const sent = load.tally();
          log(
            `soak/${dialect}: ${(taken.atSeconds / 60).toFixed(1)} min, RSS ${taken.rssMb.toFixed(0)} MB (anon ${taken.anonMb.toFixed(0)}, file ${taken.fileMb.toFixed(0)}), heap ${taken.heapUsedMb?.toFixed(0) ?? "?"} MB, ${sent.requests} requests ${JSON.stringify(sent.statusCounts)}`,
          );
        }
      }
      const tally = await load.stop();
      const loadSeconds = elapsed();
      const idleSeconds = options.quick ? 10 : 60;
      await sleep(idleSeconds * 1000);
      const idleRssMb = memoryOf(server.pid).rssMb;
      const withHeap = samples.filter((s) => s.heapUsedMb !== undefined);
      return {
        dialect,
        minutes: options.soakMinutes,
        requestsPerSecondAsked: options.soakRate,
        requestsPerSecondSent: tally.requests / loadSeconds,
        tally,
        levelling: levelling(samples, seconds),
        heapStartMb: withHeap[0]?.heapUsedMb,
        heapEndMb: withHeap[withHeap.length - 1]?.heapUsedMb,
        idleRssMb,
        idleSeconds,
        databaseMb: await database.sizeMb(),
        samples,
      };
    } finally {
      await server.stop();
    }
  } finally {
    plans.remove();
    await database.drop();
  }
}
