// The soak's load: a steady mix of API requests (submissions, job reads, list pages, usage) at a set
// rate, from a few connections, until told to stop. Paced, not as fast as it can: a soak measures what
// the server keeps over time at a realistic rate, and a saturated machine would measure the machine.
import { submissionBody } from "../http/http-endpoints.js";

/** One turn of the mix: ten requests. */
export type SoakRequestKind = "submit" | "job" | "list" | "list-running" | "list-offset" | "usage";
const turn: readonly SoakRequestKind[] = [
  "submit",
  "job",
  "list",
  "usage",
  "job",
  "list-running",
  "job",
  "list-offset",
  "usage",
  "job",
];

/** Job ids read back: the newest this many submitted. */
const recentJobs = 100;

export interface SoakLoadSpec {
  readonly url: string;
  readonly apiKey: string;
  readonly requestsPerSecond: number;
  readonly connections: number;
}

export interface SoakLoadTally {
  readonly requests: number;
  readonly byKind: Record<SoakRequestKind, number>;
  /** Answers by status code; "error" for a request that got none (refused, reset). */
  readonly statusCounts: Record<string, number>;
  /** Requests sent later than their turn by more than a second: the machine could not keep the pace. */
  readonly late: number;
}

export interface SoakLoad {
  tally(): SoakLoadTally;
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<SoakLoadTally>;
}

function pathOf(kind: SoakRequestKind, jobIds: readonly string[], n: number): string {
  switch (kind) {
    case "job":
      return `/v1/${jobIds[n % jobIds.length]}`;
    case "list":
      return "/v1?limit=25";
    case "list-running":
      return "/v1?status=running&limit=25";
    case "list-offset":
      return `/v1?limit=25&offset=${(n % 8) * 25}`;
    case "usage":
      return "/v1/usage";
    case "submit":
      return "/v1";
  }
}

/** Starts the load; the first turn submits, so every job read has a job to read. */
export function startSoakLoad(spec: SoakLoadSpec): SoakLoad {
  const headers = { authorization: `Bearer ${spec.apiKey}`, "content-type": "application/json" };
  const jobIds: string[] = [];
  const byKind = Object.fromEntries(turn.map((kind) => [kind, 0])) as Record<SoakRequestKind, number>;
  const statusCounts: Record<string, number> = {};
  let next = 0;
  let late = 0;
  let stopped = false;
  const startedAt = Date.now();
  const count = (key: string) => {
    statusCounts[key] = (statusCounts[key] ?? 0) + 1;
  };

  async function send(n: number): Promise<void> {
    let kind = turn[n % turn.length] as SoakRequestKind;
    // Until a submission has answered there is no job to read.
    if (kind === "job" && jobIds.length === 0) kind = "list";
    byKind[kind]++;
    try {
      const response = await fetch(`${spec.url}${pathOf(kind, jobIds, n)}`, {
        method: kind === "submit" ? "POST" : "GET",
        headers,
        body: kind === "submit" ? submissionBody() : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      count(String(response.status));
      if (kind === "submit" && response.status === 202) {
        const id = (JSON.parse(text) as { job_id?: unknown }).job_id;
        if (typeof id === "string") {
          jobIds.push(id);
          if (jobIds.length > recentJobs) jobIds.shift();
        }
      }
    } catch {
      count("error");
    }
  }

  async function connection(): Promise<void> {
    while (!stopped) {
      const n = next++;
      const dueAt = startedAt + (n * 1000) / spec.requestsPerSecond;
      const wait = dueAt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else if (wait < -1000) late++;
      if (stopped) return;
      await send(n);
    }
  }

  const connections = Array.from({ length: spec.connections }, () => connection());
  const tally = (): SoakLoadTally => ({
    requests: Object.values(byKind).reduce((a, b) => a + b, 0),
    byKind: { ...byKind },
    statusCounts: { ...statusCounts },
    late,
  });
  return {
    tally,
    async stop() {
      stopped = true;
      await Promise.all(connections);
      return tally();
    },
  };
}
