// The soak section as Markdown: where the server's memory started, peaked and ended, and whether it levelled off.
import { levelTolerance } from "./levelling.js";
import type { SoakSectionResult } from "./soak-section.js";

const fixed = (n: number | undefined, digits = 0) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : "-";

export function soakTable(section: SoakSectionResult): string {
  const l = section.levelling;
  const last = section.samples[section.samples.length - 1];
  const failures = Object.entries(section.tally.statusCounts)
    .filter(([status]) => !status.startsWith("2"))
    .reduce((total, [, n]) => total + n, 0);
  // One sample a minute or so: enough to see the curve without the whole series.
  const step = Math.max(1, Math.round(section.samples.length / 30));
  const curve = section.samples
    .filter((_, i) => i % step === 0)
    .map((s) => `${(s.atSeconds / 60).toFixed(1)}: ${s.rssMb.toFixed(0)}`)
    .join(", ");
  return [
    `### Soak on ${section.dialect}: one API process, ${fixed(section.minutes, 1)} minutes at a steady mix`,
    "",
    `${section.tally.requests} requests (${JSON.stringify(section.tally.byKind)}), ${fixed(section.requestsPerSecondSent)} req/s of ${section.requestsPerSecondAsked} asked; answers ${JSON.stringify(section.tally.statusCounts)}; the database ended at ${fixed(section.databaseMb)} MB.`,
    "",
    "| Measure | value | target | met |",
    "|---|---:|---:|:---:|",
    `| RSS at start, MB | ${fixed(l.startRssMb)} | | |`,
    `| RSS peak, MB | ${fixed(l.peakRssMb)} | | |`,
    `| RSS at the end, MB | ${fixed(l.endRssMb)} | | |`,
    `| RSS from minute ${fixed(l.windowFromSeconds / 60, 1)} on: lowest to highest, MB | ${fixed(l.windowMinRssMb)} to ${fixed(l.windowMaxRssMb)} | | |`,
    `| ... highest over lowest | ${fixed(l.windowSpread * 100, 1)}% | <= ${levelTolerance * 100}% | ${l.levelled ? "yes" : "**no**"} |`,
    `| ... of it at the end: anonymous (heaps, page caches) / mapped files, MB | ${fixed(last?.anonMb)} / ${fixed(last?.fileMb)} | | |`,
    `| RSS after ${section.idleSeconds} s idle, MB | ${fixed(section.idleRssMb)} | | |`,
    `| JavaScript heap used, start to end, MB | ${fixed(section.heapStartMb)} to ${fixed(section.heapEndMb)} | | |`,
    `| Answers not 2xx | ${failures} | 0 | ${failures === 0 ? "yes" : "**no**"} |`,
    "",
    `RSS (minute: MB): ${curve}.`,
  ].join("\n");
}
