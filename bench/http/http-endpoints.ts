// The endpoints the HTTP section loads, and the targets they are judged by.
import type { BenchDialect } from "../support/databases.js";
import { benchSchema, platformVideoId, type SeededHistory } from "../support/seed.js";
import { type EndpointKey, type MechanismSwitch, switchedOff } from "../support/switches.js";

export interface Endpoint {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: string;
  readonly expectStatus: number;
  /** The least real/bare ratio (by requests per second) the endpoint must reach; null for no target. */
  readonly targetRatio: number | null;
  /** Judged against the p99 target (the "queries run" variants are not: targets are on the server's default). */
  readonly judgeP99: boolean;
  /**
   * Server settings beyond the default that it is served with: VIDROWS_REMEMBER_ANSWERS=0 for the
   * "queries run" rows, a mechanism's switch at 0 for the "<switch> off" rows. Empty for the default.
   */
  readonly settings: Readonly<Record<string, string>>;
}

export const endpointNames = {
  job: "GET /v1/{job_id}",
  list: "GET /v1?limit=25",
  search: "GET /v1?search=<prefix>",
  usage: "GET /v1/usage",
  keys: "GET /v1/keys",
  submit: "POST /v1 (10 videos)",
} as const;

/**
 * The targets. PostgreSQL: the least real/bare ratio per endpoint. SQLite: "no worse than today",
 * today being the lower of the two full runs at commit e2c1ad6 (their figures are in the README's git
 * history; bench/latest-run.md has the run after it).
 */
export const ratioTargets: Record<BenchDialect, Record<EndpointKey, number>> = {
  postgres: { job: 0.35, usage: 0.35, keys: 0.25, list: 0.25, search: 0.25, submit: 0.12 },
  sqlite: { job: 0.47, list: 0.47, search: 0.42, usage: 0.55, keys: 0.54, submit: 0.38 },
};

/** p99 of every endpoint, both dialects: at most this many times the bare server's p99 measured beside it. */
export const p99RatioTarget = 3;

/** The body of `POST /v1`: 10 videos with random ids, and an inline schema. Every request sends the same one. */
export function submissionBody(): string {
  return JSON.stringify({
    videos: Array.from({ length: 10 }, () => `https://www.youtube.com/watch?v=${platformVideoId()}`),
    schema: benchSchema,
  });
}

/**
 * The reads, then the same reads with every query run, then `POST /v1` (each request adds a job), then
 * each endpoint a chosen switch touches again with that switch off, reads before submissions. The
 * "queries run" variants show what a read costs while the workspace is being written to.
 */
export function httpEndpoints(
  dialect: BenchDialect,
  history: SeededHistory,
  postBody: string,
  switches: readonly MechanismSwitch[] = [],
): Endpoint[] {
  const targets = ratioTargets[dialect];
  const endpoint = (key: EndpointKey, path: string): Endpoint => ({
    name: endpointNames[key],
    method: key === "submit" ? "POST" : "GET",
    path,
    ...(key === "submit" && { body: postBody }),
    expectStatus: key === "submit" ? 202 : 200,
    targetRatio: targets[key],
    judgeP99: true,
    settings: {},
  });
  const byKey: Record<EndpointKey, Endpoint> = {
    job: endpoint("job", `/v1/${history.handedOverJobId}`),
    list: endpoint("list", "/v1?limit=25"),
    search: endpoint("search", `/v1?search=${history.searchPrefix}`),
    usage: endpoint("usage", "/v1/usage"),
    keys: endpoint("keys", "/v1/keys"),
    submit: endpoint("submit", "/v1"),
  };
  const readKeys: EndpointKey[] = ["job", "list", "search", "usage", "keys"];
  const variant = (key: EndpointKey, label: string, settings: Record<string, string>): Endpoint => ({
    ...byKey[key],
    name: `${endpointNames[key]}, ${label}`,
    targetRatio: null,
    judgeP99: false,
    settings,
  });
  const switchedOffRows = (key: EndpointKey) =>
    switches
      .filter((each) => each.dialects.includes(dialect) && each.endpoints.includes(key))
      .map((each) => variant(key, `${each.name} off`, switchedOff(each)));
  return [
    ...readKeys.map((key) => byKey[key]),
    ...readKeys.map((key) => variant(key, "queries run", { VIDROWS_REMEMBER_ANSWERS: "0" })),
    ...readKeys.flatMap(switchedOffRows),
    byKey.submit,
    ...switchedOffRows("submit"),
  ];
}

/**
 * The endpoints `--endpoints` chose: those whose name contains one of `parts`, or, for a part that
 * starts with "=", whose name is the rest exactly (`=GET /v1/usage` without its "queries run" row).
 * All of them when `parts` is empty.
 */
export function chosenEndpoints(all: readonly Endpoint[], parts: readonly string[]): Endpoint[] {
  if (parts.length === 0) return [...all];
  return all.filter((endpoint) =>
    parts.some((part) =>
      part.startsWith("=") ? endpoint.name === part.slice(1) : endpoint.name.includes(part),
    ),
  );
}
