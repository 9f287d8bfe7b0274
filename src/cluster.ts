// `vidrows cluster`: a set of API processes sharing one port and of worker processes, on one machine,
// supervised by one primary process. For trying scale-out; across machines, run `serve --no-worker`
// and `worker` processes yourself against one PostgreSQL database.
import cluster, { type Worker as ClusterChild } from "node:cluster";

export type ClusterRole = "api" | "worker";

export interface ClusterPlan {
  readonly apiProcesses: number;
  readonly workerProcesses: number;
}

const roleVariable = "VIDROWS_CLUSTER_ROLE";

/** In a child of the cluster, its role; in any other process, undefined. */
export function clusterRole(): ClusterRole | undefined {
  if (cluster.isPrimary) return undefined;
  const role = process.env[roleVariable];
  return role === "api" || role === "worker" ? role : undefined;
}

function log(msg: string, fields: Record<string, unknown> = {}) {
  process.stdout.write(
    `${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg, ...fields })}\n`,
  );
}

// A child that keeps dying is a configuration problem, not bad luck: after this many deaths within
// a minute the cluster stops instead of restarting it forever.
const maxRestartsPerMinute = 5;

/**
 * The metrics port of the child in `slot` (0, 1, ...): VIDROWS_METRICS_PORT plus the slot, since the
 * children of one machine cannot all listen on one port and each has counters of its own; a child
 * started again after a death takes its slot's port.
 */
function metricsPortOf(slot: number): Record<string, string> {
  const base = process.env.VIDROWS_METRICS_PORT?.trim();
  return base && /^\d+$/.test(base) ? { VIDROWS_METRICS_PORT: String(Number(base) + slot) } : {};
}

/** Forks the processes and keeps them running until SIGINT or SIGTERM, which it passes on. */
export function superviseCluster(plan: ClusterPlan): Promise<void> {
  const roles = new Map<number, { role: ClusterRole; slot: number }>();
  const deaths: number[] = [];
  let stopping = false;

  const fork = (role: ClusterRole, slot: number) => {
    const child = cluster.fork({ [roleVariable]: role, ...metricsPortOf(slot) });
    roles.set(child.id, { role, slot });
    return child;
  };

  return new Promise<void>((resolve, reject) => {
    const stopAll = (reason: string) => {
      if (stopping) return;
      stopping = true;
      log("stopping the cluster", { reason });
      for (const child of Object.values(cluster.workers ?? {})) child?.process.kill("SIGTERM");
    };
    cluster.on("exit", (child: ClusterChild, code, signal) => {
      const { role, slot } = roles.get(child.id) ?? { role: "worker", slot: 0 };
      roles.delete(child.id);
      if (stopping) {
        if (roles.size === 0) resolve();
        return;
      }
      const now = Date.now();
      deaths.push(now);
      while (deaths.length > 0 && (deaths[0] ?? now) < now - 60_000) deaths.shift();
      if (deaths.length > maxRestartsPerMinute) {
        stopAll("children keep dying");
        reject(
          new Error(`Cluster children died ${deaths.length} times within a minute; see their logs above.`),
        );
        return;
      }
      log("a cluster process died; starting another", { role, code, signal });
      setTimeout(() => {
        if (!stopping) fork(role, slot);
      }, 1000);
    });
    process.on("SIGINT", () => stopAll("SIGINT"));
    process.on("SIGTERM", () => stopAll("SIGTERM"));
    for (let i = 0; i < plan.apiProcesses; i++) fork("api", i);
    for (let i = 0; i < plan.workerProcesses; i++) fork("worker", plan.apiProcesses + i);
    log("cluster started", { api: plan.apiProcesses, workers: plan.workerProcesses });
  });
}
