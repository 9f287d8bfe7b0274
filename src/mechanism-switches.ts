// The switches that turn a performance mechanism off (docs/performance.md): for measuring what it buys
// on a given machine and for ruling it out while hunting a bug. The API answers the same either way.

/** Each mechanism, on (the default) or off; remembered reads have their own setting (VIDROWS_REMEMBER_ANSWERS). */
export interface MechanismSwitches {
  /** PostgreSQL: requests of one key that arrive while its check is on its way share the next one. */
  readonly sharedKeyChecks: boolean;
  /** PostgreSQL: prepared queries are sent as named statements, parsed and planned once per connection. */
  readonly namedStatements: boolean;
  /** SQLite: write transactions asked for together share one commit. */
  readonly groupedCommits: boolean;
  /** PostgreSQL: a workspace's submissions that arrive together are written by one statement. */
  readonly groupedSubmissions: boolean;
  /** PostgreSQL: a transaction's writes that answer nothing go as one statement. */
  readonly combinedWrites: boolean;
  /** SQLite: checkpoints run in a thread of their own, never inside a commit. */
  readonly backgroundCheckpoints: boolean;
  /** SQLite: a request learns of commits from the write-ahead log's header, not a read transaction. */
  readonly logHeaderStamps: boolean;
}

/** The variable that switches each mechanism. */
export const mechanismVariables: Readonly<Record<keyof MechanismSwitches, string>> = {
  sharedKeyChecks: "VIDROWS_SHARED_KEY_CHECKS",
  namedStatements: "VIDROWS_NAMED_STATEMENTS",
  groupedCommits: "VIDROWS_GROUPED_COMMITS",
  groupedSubmissions: "VIDROWS_GROUPED_SUBMISSIONS",
  combinedWrites: "VIDROWS_COMBINED_WRITES",
  backgroundCheckpoints: "VIDROWS_BACKGROUND_CHECKPOINTS",
  logHeaderStamps: "VIDROWS_LOG_HEADER_STAMPS",
};

export const allMechanismsOn: MechanismSwitches = Object.freeze({
  sharedKeyChecks: true,
  namedStatements: true,
  groupedCommits: true,
  groupedSubmissions: true,
  combinedWrites: true,
  backgroundCheckpoints: true,
  logHeaderStamps: true,
});

/** The switches as `readSwitch` finds them (config.ts's on/off reading, which refuses anything else). */
export function readMechanismSwitches(
  readSwitch: (variable: string, fallback: boolean) => boolean,
): MechanismSwitches {
  const entries = Object.entries(mechanismVariables).map(([key, variable]) => [
    key,
    readSwitch(variable, true),
  ]);
  return Object.freeze(Object.fromEntries(entries) as unknown as MechanismSwitches);
}
