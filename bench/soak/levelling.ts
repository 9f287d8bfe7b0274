// The soak's arithmetic: from the samples of one process's memory, where it started, its peak, and whether
// it levelled off (the last stretch of the run within a few percent, highest over lowest).

/** One reading of the measured process, `atSeconds` after the load began. */
export interface MemorySample {
  readonly atSeconds: number;
  /** Resident memory, MB (VmRSS). */
  readonly rssMb: number;
  /** Of it, anonymous memory (the JavaScript heap, SQLite's page cache, buffers), MB (RssAnon). */
  readonly anonMb: number;
  /** Of it, pages of mapped files (the program, SQLite's memory-mapped reads), MB (RssFile). */
  readonly fileMb: number;
  /** The JavaScript heap in use, MB; undefined where the process did not answer in time. */
  readonly heapUsedMb?: number;
}

/** The stretch judged: the last ten minutes, or the last third of a run shorter than thirty. */
export const levelWindowSeconds = 600;
/** Levelled off: the window's highest RSS at most this much above its lowest. */
export const levelTolerance = 0.05;

export interface Levelling {
  readonly startRssMb: number;
  readonly peakRssMb: number;
  readonly endRssMb: number;
  /** Seconds from the load's start at which the judged stretch begins. */
  readonly windowFromSeconds: number;
  readonly windowMinRssMb: number;
  readonly windowMaxRssMb: number;
  /** Highest over lowest RSS in the stretch, minus one: 0.03 is 3%. */
  readonly windowSpread: number;
  readonly levelled: boolean;
}

/** How much of a `seconds`-long run is judged: ten minutes, or a third of a shorter run. */
export function windowSeconds(seconds: number): number {
  return Math.min(levelWindowSeconds, seconds / 3);
}

/**
 * Judges `samples` (in time order) of a load that lasted `seconds`. Throws on no samples: a soak that
 * could not read its process's memory has nothing to say.
 */
export function levelling(samples: readonly MemorySample[], seconds: number): Levelling {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) throw new Error("The soak took no memory samples.");
  const windowFromSeconds = seconds - windowSeconds(seconds);
  const inWindow = samples.filter((sample) => sample.atSeconds >= windowFromSeconds).map((s) => s.rssMb);
  // A run sampled more coarsely than its window still judges its last sample.
  const judged = inWindow.length > 0 ? inWindow : [last.rssMb];
  const windowMinRssMb = Math.min(...judged);
  const windowMaxRssMb = Math.max(...judged);
  const windowSpread = windowMinRssMb > 0 ? windowMaxRssMb / windowMinRssMb - 1 : Number.POSITIVE_INFINITY;
  return {
    startRssMb: first.rssMb,
    peakRssMb: Math.max(...samples.map((sample) => sample.rssMb)),
    endRssMb: last.rssMb,
    windowFromSeconds,
    windowMinRssMb,
    windowMaxRssMb,
    windowSpread,
    // Compared as a product: 105 / 100 - 1 is a hair above 0.05 in floating point.
    levelled: windowMinRssMb > 0 && windowMaxRssMb <= windowMinRssMb * (1 + levelTolerance),
  };
}
