// Submission's bookkeeping in the store: places in the fair queue, a cycle started when due, and admission.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimVideos } from "../../src/pipeline/claims.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { type Caller } from "../../src/access/authentication.js";
import { createServices, type Services } from "../../src/app/services.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { isSealed, openStored } from "../../src/store/sealed-values.js";
import { admitAllWaitingJobs } from "../support/admissions.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const plans = loadPlanTable(undefined);
const schema = { columns: ["product"] };
const dayMs = 24 * 3600_000;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`job submission on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    let services: Services;
    let nextVideo = 0;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      services = createServices(store, plans, true);
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    const newCaller = async (name: string, plan = "pro"): Promise<Caller> => {
      const { apiKey } = await services.workspaces.create(name, plan);
      const caller = await services.accessCheck.identify(apiKey);
      if (!caller) throw new Error("the new key did not identify its workspace");
      return caller;
    };
    const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) =>
      Number((await query.executeTakeFirstOrThrow()).n);
    const waitingJobs = () =>
      count(store.db.selectFrom("job_admissions").select((eb) => eb.fn.countAll<number>().as("n")));
    const admittedVideos = (workspaceId: string) =>
      count(
        store.db
          .selectFrom("videos")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("workspace_id", "=", workspaceId),
      );
    /** Distinct 11-character video ids: `v` and a zero-padded counter. */
    const videos = (count: number) =>
      Array.from({ length: count }, () => `v${String(nextVideo++).padStart(10, "0")}`);
    const submit = (caller: Caller, count: number) =>
      services.jobSubmission.submit(caller, { videos: videos(count), schema });
    const priorities = async (jobId: string) =>
      (
        await store.db
          .selectFrom("videos")
          .select("priority")
          .where("job_id", "=", jobId)
          .orderBy("position")
          .execute()
      ).map((video) => Number(video.priority));
    const workspaceRow = (workspaceId: string) =>
      store.db.selectFrom("workspaces").selectAll().where("id", "=", workspaceId).executeTakeFirstOrThrow();
    /** Moves the workspace's creation and current cycle 40 days back, so that a new cycle is due. */
    const endCycle = (workspaceId: string, figures: { balance: number; used_this_cycle: number }) => {
      const longAgo = Date.now() - 40 * dayMs;
      return store.db
        .updateTable("workspaces")
        .set({ ...figures, created_at: longAgo, cycle_started_at: longAgo })
        .where("id", "=", workspaceId)
        .execute();
    };

    it("lines a workspace's jobs up after its own videos, and a newcomer's at the queue's head", async () => {
      const busy = await newCaller("busy");
      const first = await submit(busy, 3);
      const second = await submit(busy, 2);
      await admitAllWaitingJobs(store);
      const start = (await priorities(first.body.job_id))[0] as number;
      expect(await priorities(first.body.job_id)).toEqual([start, start + 1, start + 2]);
      expect(await priorities(second.body.job_id)).toEqual([start + 3, start + 4]);

      // Two videos leave the queue: its head is now the busy workspace's third video.
      const claimed = await claimVideos(store, "wrk_test", 2, 60_000);
      expect(claimed).toHaveLength(2);
      const newcomer = await newCaller("newcomer");
      const newcomersJob = await submit(newcomer, 1);
      await admitAllWaitingJobs(store);
      expect(await priorities(newcomersJob.body.job_id)).toEqual([start + 2]);
      // The busy workspace's next job still follows its own earlier videos.
      const third = await submit(busy, 1);
      await admitAllWaitingJobs(store);
      expect(await priorities(third.body.job_id)).toEqual([start + 5]);
      // Three jobs counted in, less the first, which the claim started.
      expect(Number((await workspaceRow(busy.workspaceId)).jobs_queued)).toBe(2);
    });

    it("writes a job's videos as one admission row, which a claim turns into queued videos once", async () => {
      const caller = await newCaller("admitted");
      const urls = [
        "https://www.youtube.com/watch?v=adm00000001",
        "adm00000002",
        "https://youtu.be/adm00000003",
      ];
      const job = await services.jobSubmission.submit(caller, { videos: urls, schema });
      const jobId = job.body.job_id;
      const videosOfJob = () =>
        store.db
          .selectFrom("videos")
          .select(["position", "platform_video_id", "submitted_url", "priority", "status"])
          .where("job_id", "=", jobId)
          .orderBy("position")
          .execute();
      expect(await videosOfJob()).toEqual([]);
      const waiting = await store.db
        .selectFrom("job_admissions")
        .selectAll()
        .where("job_id", "=", jobId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(waiting.platform_video_ids)).toEqual(["adm00000001", "adm00000002", "adm00000003"]);
      // On PostgreSQL each URL is sealed under the job's data key (store/sealed-values.ts); on SQLite in plain.
      const dataKey =
        (
          await store.db
            .selectFrom("job_keys")
            .select("data_key")
            .where("job_id", "=", jobId)
            .executeTakeFirst()
        )?.data_key ?? null;
      expect(dataKey === null).toBe(dialect.name === "sqlite");
      const readable = (stored: string | null) => (stored === null ? null : openStored(dataKey, stored));
      const storedUrls = JSON.parse(waiting.submitted_urls) as string[];
      expect(storedUrls.every((stored) => isSealed(stored))).toBe(dialect.name === "postgres");
      expect(storedUrls.map(readable)).toEqual(urls);

      // A claim with no room for this job's videos still admits them.
      await claimVideos(store, "wrk_test", 1, 60_000);
      const first = Number(waiting.first_priority);
      const admitted = await videosOfJob();
      expect(
        admitted.map((v) => ({
          ...v,
          submitted_url: readable(v.submitted_url),
          priority: Number(v.priority),
        })),
      ).toEqual(
        urls.map((url, position) => ({
          position,
          platform_video_id: `adm0000000${position + 1}`,
          submitted_url: url,
          priority: first + position,
          status: expect.stringMatching(/^(queued|processing)$/),
        })),
      );
      const left = await store.db
        .selectFrom("job_admissions")
        .select("job_id")
        .where("job_id", "=", jobId)
        .execute();
      expect(left).toEqual([]);
      // A second claim admits nothing twice.
      await claimVideos(store, "wrk_test", 1, 60_000);
      expect(await videosOfJob()).toHaveLength(3);
    });

    it("admits a backlog of 60 jobs over two claims, 50 and then 10", async () => {
      await admitAllWaitingJobs(store);
      const caller = await newCaller("backlog");
      for (let i = 0; i < 60; i++) await submit(caller, 1);
      expect(await waitingJobs()).toBe(60);
      await claimVideos(store, "wrk_test", 1, 60_000);
      expect(await waitingJobs()).toBe(10);
      await claimVideos(store, "wrk_test", 1, 60_000);
      expect(await waitingJobs()).toBe(0);
      expect(await admittedVideos(caller.workspaceId)).toBe(60);
    });

    it("admits at most 1,000 videos a claim, but always one job: 600 + 600, then 600", async () => {
      await admitAllWaitingJobs(store);
      const caller = await newCaller("large jobs", "scale");
      for (let i = 0; i < 3; i++) await submit(caller, 600);
      await claimVideos(store, "wrk_test", 1, 60_000);
      expect(await admittedVideos(caller.workspaceId)).toBe(1200);
      await claimVideos(store, "wrk_test", 1, 60_000);
      expect(await admittedVideos(caller.workspaceId)).toBe(1800);
    });

    it("finds a job by a platform id prefix before and after its admission, in its own workspace only", async () => {
      const caller = await newCaller("searched");
      const other = await newCaller("elsewhere");
      const mine = await services.jobSubmission.submit(caller, {
        videos: ["srchAb_0001", "srchCd-0002"],
        schema,
      });
      await services.jobSubmission.submit(other, { videos: ["srchAb_0009"], schema });
      const found = async (workspaceId: string, search: string) =>
        (
          await services.jobPages.list(
            { workspaceId, plan: caller.plan, readStamp: undefined },
            { search, limit: 25, offset: 0 },
          )
        ).data.map((job) => job.job_id);
      const before = {
        first: await found(caller.workspaceId, "srchAb_"),
        second: await found(caller.workspaceId, "srchCd-0002"),
        // `_` is a wildcard to LIKE; here it must match only itself.
        wildcard: await found(caller.workspaceId, "srchCd_"),
        // Only an element's start matches.
        middle: await found(caller.workspaceId, "0001"),
      };
      expect(before).toEqual({
        first: [mine.body.job_id],
        second: [mine.body.job_id],
        wildcard: [],
        middle: [],
      });
      expect(await found(other.workspaceId, "srchCd")).toEqual([]);

      await admitAllWaitingJobs(store);
      expect(await found(caller.workspaceId, "srchAb_")).toEqual([mine.body.job_id]);
      expect(await found(caller.workspaceId, "srchCd-0002")).toEqual([mine.body.job_id]);
    });

    it("writes the same job row with or without an Idempotency-Key (two statements on PostgreSQL, one column list)", async () => {
      const caller = await newCaller("same-row");
      const input = {
        videos: videos(2),
        schema: { columns: ["speaker", "claim"] },
        language: "de",
        transcribe: "never" as const,
      };
      const grouped = await services.jobSubmission.submit(caller, input);
      const keyed = await services.jobSubmission.submit(
        caller,
        { ...input, videos: videos(2) },
        "same-row-key",
      );
      const rowOf = async (jobId: string) => {
        const { id, created_at, ...row } = await store.db
          .selectFrom("jobs")
          .selectAll()
          .where("id", "=", jobId)
          .executeTakeFirstOrThrow();
        expect(id).toBe(jobId);
        expect(Number(created_at)).toBeGreaterThan(0);
        return row;
      };
      const expected = {
        workspace_id: caller.workspaceId,
        schema_label: "inline",
        schema_definition: JSON.stringify({ columns: ["speaker", "claim"] }),
        language: "de",
        transcribe: "never",
        status: "processing",
        video_count: 2,
        queued_count: 2,
        processing_count: 0,
        done_count: 0,
        failed_count: 0,
        has_failures: 0,
        credits_charged: 0,
        completed_at: null,
        handed_over_at: null,
        handover_claim: null,
        handover_claimed_until: null,
        handover_returned_at: null,
        cancelled_at: null,
        // Not asked for: a later job of the workspace reuses kept transcripts (the default).
        reuse_transcripts: null,
      };
      const numbersAsNumbers = (row: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]),
        );
      expect(numbersAsNumbers(await rowOf(grouped.body.job_id))).toEqual(expected);
      expect(numbersAsNumbers(await rowOf(keyed.body.job_id))).toEqual(expected);
    });

    it("starts a due cycle before refusing for credits: a workspace at 0 gets its allowance and its job", async () => {
      const caller = await newCaller("month over, nothing left");
      await endCycle(caller.workspaceId, { balance: 0, used_this_cycle: 10_000 });
      const before = await workspaceRow(caller.workspaceId);
      const job = await submit(caller, 1);
      expect(job.body.videos).toBe(1);
      const after = await workspaceRow(caller.workspaceId);
      expect(Number(after.balance)).toBe(caller.plan.cycleAllowance);
      expect(Number(after.used_this_cycle)).toBe(0);
      expect(Number(after.cycle_started_at)).toBeGreaterThan(Number(before.cycle_started_at));
      const resets = await store.db
        .selectFrom("credit_ledger")
        .select("amount")
        .where("workspace_id", "=", caller.workspaceId)
        .where("kind", "=", "cycle_reset")
        .execute();
      expect(resets.map((entry) => Number(entry.amount))).toEqual([caller.plan.cycleAllowance]);
    });

    it("starts a due cycle of a workspace that could spend anyway: its usage is cleared", async () => {
      const caller = await newCaller("month over, credits left");
      await endCycle(caller.workspaceId, { balance: 500, used_this_cycle: 300 });
      const before = await workspaceRow(caller.workspaceId);
      await submit(caller, 2);
      const after = await workspaceRow(caller.workspaceId);
      expect(Number(after.used_this_cycle)).toBe(0);
      expect(Number(after.balance)).toBe(caller.plan.cycleAllowance);
      expect(Number(after.cycle_started_at)).toBeGreaterThan(Number(before.cycle_started_at));
    });

    it("refuses a capped workspace even when a new cycle is due, and keeps none of the attempt", async () => {
      const caller = await newCaller("capped at 0");
      await endCycle(caller.workspaceId, { balance: 0, used_this_cycle: 0 });
      await store.db
        .updateTable("workspaces")
        .set({ hard_cap: 0 })
        .where("id", "=", caller.workspaceId)
        .execute();
      const before = await workspaceRow(caller.workspaceId);
      await expect(submit(caller, 1)).rejects.toMatchObject({ code: "hard_cap_reached" });
      // The renewal was part of the refused transaction, so it is gone with it.
      expect(await workspaceRow(caller.workspaceId)).toEqual(before);
      const jobs = await store.db
        .selectFrom("jobs")
        .select("id")
        .where("workspace_id", "=", caller.workspaceId)
        .execute();
      expect(jobs).toEqual([]);
    });
  });
}
