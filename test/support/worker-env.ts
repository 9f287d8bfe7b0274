// Jobs for `vidrows worker` child processes: an API without a worker of its own, and the settings that
// point a child at the same database, captions folder and fake model.
import type { DialectName } from "./databases.js";
import type { FakeModelBehaviour } from "./fake-model.js";
import { type PipelineServer, startPipelineServer } from "./pipeline.js";
import { startWorkerProcess, type WorkerProcess } from "./processes.js";

/** A pipeline server that takes jobs but processes none: the child workers do. */
export function startApiWithoutWorker(
  dialect: DialectName,
  options: { respond?: FakeModelBehaviour; modelDelayMs?: number } = {},
): Promise<PipelineServer> {
  return startPipelineServer(dialect, { ...options, app: { work: false } });
}

/** Starts `vidrows worker` on the server's database, captions and model, with `settings` on top. */
export function startWorkerFor(
  server: PipelineServer,
  settings: Record<string, string> = {},
): Promise<WorkerProcess> {
  return startWorkerProcess({
    databaseUrl: server.database.url,
    env: {
      VIDROWS_CAPTIONS: `dir:${server.captionsDir}`,
      VIDROWS_LLM_BASE_URL: server.model.url,
      VIDROWS_LLM_API_KEY: "x",
      VIDROWS_LLM_MODEL: "fake-model",
      ...settings,
    },
  });
}

/** `count` distinct 11-character video ids starting with `prefix`. */
export function videoIds(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(11 - prefix.length, "0")}`);
}

/** Submits a job of `videos` and answers its id, failing loudly if the submission is refused. */
export async function submitJob(
  server: PipelineServer,
  key: string,
  videos: string[],
  schema: unknown = { columns: ["product", "price"] },
): Promise<string> {
  const submitted = await server.call("POST", "/v1", { key, body: { videos, schema } });
  if (submitted.status !== 202) throw new Error(`POST /v1 answered ${submitted.status}: ${submitted.text}`);
  return submitted.body.job_id as string;
}
