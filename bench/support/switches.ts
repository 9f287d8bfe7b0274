// The server's mechanism switches (docs/performance.md) that a run can turn off, each measured beside the
// server's default in the same run: `--switches=grouped-commits,named-statements` or BENCH_SWITCHES.
import type { BenchDialect } from "./databases.js";

/** The HTTP section's endpoints, by key (see http/http-endpoints.ts). */
export type EndpointKey = "job" | "list" | "search" | "usage" | "keys" | "submit";

export interface MechanismSwitch {
  /** The name `--switches` takes. */
  readonly name: string;
  /** The server's variable; the runs with the switch off set it to 0. */
  readonly variable: string;
  /** The databases the mechanism exists on. */
  readonly dialects: readonly BenchDialect[];
  /** The HTTP endpoints whose work it changes, each measured again with it off. */
  readonly endpoints: readonly EndpointKey[];
  /** Whether the pipeline section's instant-model run is measured again with it off. */
  readonly pipeline: boolean;
}

const reads: EndpointKey[] = ["job", "list", "search", "usage", "keys"];

/**
 * Remembered reads are not here: the HTTP section always measures every read with them off too
 * ("queries run"), and the history section only with them off. The reads of the PostgreSQL rows are
 * measured with their answers remembered, so what a switch changes there is the key check alone;
 * the "queries run" rows show the full statements.
 */
export const mechanismSwitches: readonly MechanismSwitch[] = [
  {
    name: "shared-key-checks",
    variable: "VIDROWS_SHARED_KEY_CHECKS",
    dialects: ["postgres"],
    endpoints: [...reads, "submit"],
    pipeline: false,
  },
  {
    name: "named-statements",
    variable: "VIDROWS_NAMED_STATEMENTS",
    dialects: ["postgres"],
    endpoints: [...reads, "submit"],
    pipeline: true,
  },
  {
    name: "grouped-commits",
    variable: "VIDROWS_GROUPED_COMMITS",
    dialects: ["sqlite"],
    endpoints: ["submit"],
    pipeline: false,
  },
  {
    name: "grouped-submissions",
    variable: "VIDROWS_GROUPED_SUBMISSIONS",
    dialects: ["postgres"],
    endpoints: ["submit"],
    pipeline: false,
  },
  {
    name: "combined-writes",
    variable: "VIDROWS_COMBINED_WRITES",
    dialects: ["postgres"],
    endpoints: [],
    pipeline: true,
  },
  {
    name: "background-checkpoints",
    variable: "VIDROWS_BACKGROUND_CHECKPOINTS",
    dialects: ["sqlite"],
    endpoints: ["submit"],
    pipeline: true,
  },
  {
    name: "log-header-stamps",
    variable: "VIDROWS_LOG_HEADER_STAMPS",
    dialects: ["sqlite"],
    endpoints: reads,
    pipeline: false,
  },
];

/** The switches named in a run's options, in the table's order; an unknown name is refused. */
export function switchesNamed(names: readonly string[]): MechanismSwitch[] {
  for (const name of names) {
    if (!mechanismSwitches.some((each) => each.name === name)) {
      throw new Error(
        `Unknown switch "${name}"; the switches are ${mechanismSwitches.map((each) => each.name).join(", ")}.`,
      );
    }
  }
  return mechanismSwitches.filter((each) => names.includes(each.name));
}

/** The server settings that turn `each` off. */
export function switchedOff(each: MechanismSwitch): Record<string, string> {
  return { [each.variable]: "0" };
}
