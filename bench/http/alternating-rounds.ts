// An endpoint and its yardstick (the bare server answering the same bytes) loaded in turn, A-B-A-B: on a
// shared machine the load of other work drifts by tens of percent within a minute, and a single pair
// takes its ratio from whichever moment each half fell on. Several pairs in a row, with the pair of the
// median ratio reported, leave out the pair a neighbour's burst fell on, on either side.

/** One measured load; only what picking a pair needs. */
export interface RoundLoad {
  readonly requestsPerSecond: number;
}

export interface AlternatingRounds<L extends RoundLoad> {
  /** The endpoint's and the yardstick's load of the pair whose ratio is the median. */
  readonly measured: L;
  readonly yardstick: L;
  /** Each pair's real/bare by requests per second, in the order run. */
  readonly ratios: readonly number[];
}

/**
 * Runs `rounds` pairs (the endpoint, then its yardstick) one after the other and returns the pair of the
 * median requests-per-second ratio (the lower middle one of an even count, so a tie never flatters).
 */
export async function alternatingRounds<L extends RoundLoad>(
  rounds: number,
  runEndpoint: () => Promise<L>,
  runYardstick: () => Promise<L>,
): Promise<AlternatingRounds<L>> {
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`rounds must be a whole number >= 1, not ${rounds}`);
  const pairs: { measured: L; yardstick: L; ratio: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const measured = await runEndpoint();
    const yardstick = await runYardstick();
    pairs.push({ measured, yardstick, ratio: measured.requestsPerSecond / yardstick.requestsPerSecond });
  }
  const byRatio = [...pairs].sort((a, b) => a.ratio - b.ratio);
  const median = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
  return { measured: median.measured, yardstick: median.yardstick, ratios: pairs.map((pair) => pair.ratio) };
}
