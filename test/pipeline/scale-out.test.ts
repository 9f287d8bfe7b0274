// Scale-out on one PostgreSQL: two API processes and two worker processes share the work of 20
// workspaces without doing any of it twice, and the rate limit holds across the API processes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlanTable } from "../../src/domain/plans.js";
import { createServices } from "../../src/app/services.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { type FakeModel, messageOf, rowsReply, startFakeModel } from "../support/fake-model.js";
import { webVtt } from "../support/pipeline.js";
import {
  killAllChildren,
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
} from "../support/processes.js";
import { call } from "../support/test-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";
import { sleep } from "../../src/concurrency/sleep.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const postgres = dialects.find((d) => d.name === "postgres");
const workspaces = 20;
const videosPerWorkspace = 100;

const plans = {
  big: {
    name: "Big",
    requests_per_minute: 100_000,
    api_keys: 10,
    webhook_endpoints: 5,
    cycle_allowance: 1_000_000,
    videos_per_job: 1000,
  },
  limited: {
    name: "Limited",
    requests_per_minute: 10,
    api_keys: 10,
    webhook_endpoints: 0,
    cycle_allowance: 100,
    videos_per_job: 10,
  },
};

/** 11-character video ids, unique across the run: `s` + workspace + video number, padded. */
function videoId(workspace: number, video: number): string {
  return `s${String(workspace).padStart(2, "0")}v${String(video).padStart(3, "0")}xxxx`;
}

describe.skipIf(postgres?.skipReason !== null)(
  `scale-out on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    let model: FakeModel;
    let receiver: WebhookReceiver;
    let captionsDir: string;
    let plansDir: string;
    let apis: ServerProcess[];

    beforeAll(async () => {
      database = await freshDatabase("postgres");
      model = await startFakeModel({ respond: () => rowsReply([{ item: "thing", n: 1 }]), delayMs: 50 });
      receiver = await startWebhookReceiver();
      captionsDir = mkdtempSync(join(tmpdir(), "vidrows-scale-captions-"));
      for (let w = 0; w < workspaces; w++) {
        for (let v = 0; v < videosPerWorkspace; v++) {
          const id = videoId(w, v);
          // The transcript names its video, so the model's requests tell which video each was for.
          writeFileSync(join(captionsDir, `${id}.vtt`), webVtt(30, [`This is video ${id}.`]));
        }
      }
      plansDir = mkdtempSync(join(tmpdir(), "vidrows-scale-plans-"));
      writeFileSync(join(plansDir, "plans.json"), JSON.stringify(plans));
      const env = {
        VIDROWS_PLANS: join(plansDir, "plans.json"),
        VIDROWS_CAPTIONS: `dir:${captionsDir}`,
        VIDROWS_LLM_BASE_URL: model.url,
        VIDROWS_LLM_API_KEY: "test",
        VIDROWS_WEBHOOK_ALLOW_PRIVATE: "1",
        VIDROWS_WORKER_VIDEOS: "32",
        VIDROWS_MODEL_CONCURRENCY: "32",
        NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url)),
        LOG_LEVEL: "warn",
      };
      // The first API process migrates; the others find the work done.
      const first = await startServerProcess({
        databaseUrl: database.url,
        env: { ...env, LOG_LEVEL: "info" },
      });
      const second = await startServerProcess({
        databaseUrl: database.url,
        env: { ...env, LOG_LEVEL: "info" },
      });
      apis = [first, second];
      await Promise.all([
        startWorkerProcess({ databaseUrl: database.url, env: { ...env, LOG_LEVEL: "info" } }),
        startWorkerProcess({ databaseUrl: database.url, env: { ...env, LOG_LEVEL: "info" } }),
      ]);
      store = openStore(database.target, { maxConnections: 2 });
    });

    afterAll(async () => {
      await killAllChildren();
      await store?.close();
      await receiver?.close();
      await model?.close();
      await database?.drop();
      if (captionsDir) rmSync(captionsDir, { recursive: true, force: true });
      if (plansDir) rmSync(plansDir, { recursive: true, force: true });
    });

    it("processes and charges each of 2,000 videos once, and makes each webhook attempt once", async () => {
      const services = createServices(store, parsePlanTable(plans, "test plans"));
      const keys: string[] = [];
      for (let w = 0; w < workspaces; w++) {
        keys.push((await services.workspaces.create(`scale-${w}`, "big")).apiKey);
      }
      // Endpoints and submissions spread over both API processes.
      for (let w = 0; w < workspaces; w++) {
        const api = apis[w % 2] as ServerProcess;
        const hook = await call(api.url, "POST", "/v1/webhooks", {
          key: keys[w],
          body: { url: `${receiver.origin}/w${w}` },
        });
        expect(hook.status).toBe(201);
        const videos = Array.from({ length: videosPerWorkspace }, (_, v) => videoId(w, v));
        const job = await call(api.url, "POST", "/v1", {
          key: keys[w],
          body: { videos, schema: { columns: ["item", "n"] } },
        });
        expect(job.status).toBe(202);
      }

      const deadline = Date.now() + 180_000;
      for (;;) {
        // Jobs rather than videos: a job's videos become rows only when a worker admits them.
        const open = await store.db
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", "processing")
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        if (Date.now() > deadline) throw new Error(`${open.n} jobs still running after the deadline`);
        await sleep(250);
      }

      // Processed once: every video done, and the model asked about each video exactly once.
      const statuses = await store.db.selectFrom("videos").select("status").execute();
      expect(statuses).toHaveLength(workspaces * videosPerWorkspace);
      expect(statuses.every((v) => v.status === "done")).toBe(true);
      const asked = new Map<string, number>();
      for (const request of model.requests) {
        const id = /This is video (\w{11})\./.exec(messageOf(request, "user"))?.[1];
        if (id) asked.set(id, (asked.get(id) ?? 0) + 1);
      }
      expect(asked.size).toBe(workspaces * videosPerWorkspace);
      expect([...asked.values()].every((n) => n === 1)).toBe(true);

      // Charged once: one ledger charge per video, and balances that add up.
      const charges = await store.db
        .selectFrom("credit_ledger")
        .select((eb) => [
          "workspace_id",
          eb.fn.countAll<number>().as("n"),
          eb.fn.sum<number>("amount").as("total"),
        ])
        .where("kind", "=", "charge")
        .groupBy("workspace_id")
        .execute();
      expect(charges).toHaveLength(workspaces);
      for (const charge of charges) {
        expect(Number(charge.n)).toBe(videosPerWorkspace);
        expect(Number(charge.total)).toBe(-videosPerWorkspace);
      }
      const balances = await store.db
        .selectFrom("workspaces")
        .select(["balance", "videos_processed", "jobs_done"])
        // The first API process also made the `default` workspace, which has no jobs.
        .where("name", "like", "scale-%")
        .execute();
      expect(balances).toHaveLength(workspaces);
      for (const w of balances) {
        expect(w).toEqual({
          balance: 1_000_000 - videosPerWorkspace,
          videos_processed: videosPerWorkspace,
          jobs_done: 1,
        });
      }

      // Each webhook attempt made once: 2 events (job.completed, batch.completed) per workspace.
      const received = await receiver.waitFor(workspaces * 2, workWaitMs);
      await sleep(1500); // room for any duplicate to show up
      const ids = received.map((r) => String(r.headers["webhook-id"]));
      expect(received).toHaveLength(workspaces * 2);
      expect(new Set(ids).size).toBe(workspaces * 2);
      const attempts = await store.db
        .selectFrom("webhook_attempts")
        .select(["event_id", "attempt", "status_code"])
        .execute();
      expect(attempts).toHaveLength(workspaces * 2);
      expect(attempts.every((a) => a.attempt === 1 && a.status_code === 200)).toBe(true);
    }, 300_000);

    it("holds a workspace's per-minute limit across both API processes", async () => {
      const services = createServices(store, parsePlanTable(plans, "test plans"));
      const { apiKey } = await services.workspaces.create("limited", "limited");
      // Ten requests must fit in one fixed minute: start at the beginning of a fresh one if this is late.
      const msLeft = 60_000 - (Date.now() % 60_000);
      if (msLeft < 10_000) await sleep(msLeft + 100);
      for (let i = 0; i < 10; i++) {
        const answer = await call((apis[i % 2] as ServerProcess).url, "GET", "/v1/usage", { key: apiKey });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("ratelimit-remaining")).toBe(String(9 - i));
      }
      for (const api of apis) {
        const refused = await call(api.url, "GET", "/v1/usage", { key: apiKey });
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe("rate_limited");
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    });
  },
);
