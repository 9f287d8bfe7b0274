// POST /v1 over HTTP: every submission rule, saved schemas, idempotency, limits and credits.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { admitAllWaitingJobs } from "../support/admissions.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { columnsAsked, newVideoId, schema, useJobsApi } from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";
import { startTestServer } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`submitting jobs on ${dialectTitle(dialect)}`, () => {
    const {
      server: running,
      videoWithCaptions,
      submit,
      emptyBalance,
      jobTotal,
      settledByList,
      modelRequestsFor,
    } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });

    describe("POST /v1 refuses each bad value with 400 naming the field", () => {
      const id = "aqz-KE-bpKQ";
      const cases: [string, Record<string, unknown>, string][] = [
        ["missing videos", { schema }, "videos"],
        ["empty videos", { videos: [], schema }, "videos"],
        ["videos that is not an array", { videos: id, schema }, "videos"],
        ["a video that is not a string", { videos: [id, 5], schema }, "videos[1]"],
        ["a video that is an empty string", { videos: [""], schema }, "videos[0]"],
        ["a URL of an unknown host", { videos: [id, `https://vimeo.com/${id}`], schema }, "videos[1]"],
        [
          "a look-alike host",
          { videos: [`https://youtube.com.evil.test/watch?v=${id}`], schema },
          "videos[0]",
        ],
        [
          "a channel URL",
          { videos: [id, "https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw"], schema },
          "videos[1]",
        ],
        ["a handle URL", { videos: ["https://www.youtube.com/@somechannel"], schema }, "videos[0]"],
        [
          "a playlist URL",
          { videos: [id, "dQw4w9WgXcQ", "https://www.youtube.com/playlist?list=PL0123456789"], schema },
          "videos[2]",
        ],
        ["a 10-character id", { videos: ["aqz-KE-bpK"], schema }, "videos[0]"],
        ["a 12-character id", { videos: [id, "aqz-KE-bpKQx"], schema }, "videos[1]"],
        [
          "the same video twice in two forms",
          { videos: [`https://www.youtube.com/watch?v=${id}`, `https://youtu.be/${id}`], schema },
          "videos[1]",
        ],
        ["both schema and schema_id", { videos: [id], schema, schema_id: "sch_doesnotexist" }, "schema_id"],
        ["neither schema nor schema_id", { videos: [id] }, "schema"],
        ["schema_version without schema_id", { videos: [id], schema, schema_version: 1 }, "schema_version"],
        ["schema_version 0", { videos: [id], schema_id: "sch_x", schema_version: 0 }, "schema_version"],
        ["schema_version 1.5", { videos: [id], schema_id: "sch_x", schema_version: 1.5 }, "schema_version"],
        [
          "schema_version as text",
          { videos: [id], schema_id: "sch_x", schema_version: "1" },
          "schema_version",
        ],
        ["a schema of neither shape", { videos: [id], schema: { fields: ["a"] } }, "schema"],
        ["a schema of 0 columns", { videos: [id], schema: { columns: [] } }, "schema.columns"],
        [
          "a schema of 51 columns",
          { videos: [id], schema: { columns: Array.from({ length: 51 }, (_, i) => `c${i}`) } },
          "schema.columns",
        ],
        ["a column given twice", { videos: [id], schema: { columns: ["a", "b", "a"] } }, "schema.columns"],
        ["an empty column name", { videos: [id], schema: { columns: ["a", ""] } }, "schema.columns[1]"],
        [
          "a template description of 501 characters",
          { videos: [id], schema: { template: { a: "d".repeat(501) } } },
          "schema.template.a",
        ],
        ["a language that is not a BCP-47 tag", { videos: [id], schema, language: "english!" }, "language"],
        ["an empty language", { videos: [id], schema, language: "" }, "language"],
        ["a language that is not a string", { videos: [id], schema, language: 7 }, "language"],
        ["an unknown body field", { videos: [id], schema, priority: "high" }, "priority"],
      ];
      for (const [title, body, param] of cases) {
        it(`refuses ${title} (param ${param}) and creates no job`, async () => {
          const { key } = await server.workspace();
          const answer = await submit(key, body);
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          expect(answer.body.error.param).toBe(param);
          expect(answer.body.error.message.length).toBeGreaterThan(10);
          expect(await jobTotal(key)).toBe(0);
        });
      }

      it("refuses an Idempotency-Key over 255 characters, and takes one of exactly 255", async () => {
        const { key } = await server.workspace();
        const tooLong = await submit(key, { videos: [id], schema }, { "idempotency-key": "k".repeat(256) });
        expect(tooLong.status, tooLong.text).toBe(400);
        expect(tooLong.body.error.code).toBe("invalid_request");
        expect(tooLong.body.error.param.toLowerCase()).toBe("idempotency-key");
        expect(await jobTotal(key)).toBe(0);
        const longest = await submit(key, { videos: [id], schema }, { "idempotency-key": "k".repeat(255) });
        expect(longest.status, longest.text).toBe(202);
      });
    });

    it("accepts every URL form and the bare id, and reads each as its video", async () => {
      const { key } = await server.workspace();
      const ids = Array.from({ length: 10 }, () => newVideoId());
      const forms = [
        `https://www.youtube.com/watch?v=${ids[0]}`,
        `https://youtu.be/${ids[1]}`,
        `https://www.youtube.com/shorts/${ids[2]}`,
        `https://www.youtube.com/embed/${ids[3]}`,
        `https://www.youtube.com/live/${ids[4]}`,
        `https://m.youtube.com/watch?v=${ids[5]}`,
        `https://music.youtube.com/watch?v=${ids[6]}`,
        ids[7],
        `https://www.youtube.com/watch?feature=share&v=${ids[8]}&t=42s&list=PL0123`,
        `https://youtu.be/${ids[9]}?si=AbCdEf&t=7`,
      ];
      const answer = await submit(key, { videos: forms, schema, language: "pt-BR" });
      expect(answer.status, answer.text).toBe(202);
      expect(answer.body.videos).toBe(10);
      // No captions exist for these, so every video fails quickly; the read still names each by its id.
      const settled = await server.waitForSettled(key, answer.body.job_id);
      expect(settled.results.map((r: any) => r.video_id)).toEqual(ids);
    });

    describe("saved schemas", () => {
      const saveSchema = async (key: string, columns: string[]) => {
        const name = `s-${randomBytes(4).toString("hex")}`;
        const saved = await server.call("POST", "/v1/schemas", { key, body: { name, schema: { columns } } });
        expect(saved.status, saved.text).toBe(201);
        return { id: saved.body.id as string, name };
      };

      it("answers 404 schema_not_found for an unknown schema_id or another workspace's, creating no job", async () => {
        const { key } = await server.workspace();
        const other = await server.workspace();
        const theirs = await saveSchema(other.key, ["a"]);
        for (const schemaId of ["sch_doesnotexist", theirs.id]) {
          const answer = await submit(key, { videos: [newVideoId()], schema_id: schemaId });
          expect(answer.status, answer.text).toBe(404);
          expect(answer.body.error.code).toBe("schema_not_found");
          expect(answer.body.error.param).toBe("schema_id");
        }
        expect(await jobTotal(key)).toBe(0);
      });

      it("answers 404 schema_version_not_found for a version that does not exist", async () => {
        const { key } = await server.workspace();
        const saved = await saveSchema(key, ["a"]);
        const answer = await submit(key, { videos: [newVideoId()], schema_id: saved.id, schema_version: 2 });
        expect(answer.status, answer.text).toBe(404);
        expect(answer.body.error.code).toBe("schema_version_not_found");
        expect(answer.body.error.param).toBe("schema_version");
        expect(await jobTotal(key)).toBe(0);
      });

      it("labels jobs <name>-v<version>, runs the latest version by default and the asked one otherwise", async () => {
        const { key } = await server.workspace();
        const saved = await saveSchema(key, ["title", "year"]);
        const first = videoWithCaptions();
        const v1Job = await submit(key, { videos: [first], schema_id: saved.id });
        expect(v1Job.status, v1Job.text).toBe(202);
        expect(v1Job.body.schema).toBe(`${saved.name}-v1`);

        const published = await server.call("POST", `/v1/schemas/${saved.id}/versions`, {
          key,
          body: { schema: { template: { author: "Who wrote it", pages: "How many pages" } } },
        });
        expect(published.status, published.text).toBe(201);

        const latest = videoWithCaptions();
        const latestJob = await submit(key, { videos: [latest], schema_id: saved.id });
        expect(latestJob.body.schema).toBe(`${saved.name}-v2`);
        const pinned = videoWithCaptions();
        const pinnedJob = await submit(key, { videos: [pinned], schema_id: saved.id, schema_version: 1 });
        expect(pinnedJob.body.schema).toBe(`${saved.name}-v1`);

        for (const job of [v1Job, latestJob, pinnedJob]) await settledByList(key, job.body.job_id);
        const askedFor = (videoId: string) => {
          const requests = modelRequestsFor(videoId);
          expect(requests.length).toBeGreaterThan(0);
          return requests.map(columnsAsked);
        };
        expect(askedFor(first)).toEqual([["title", "year"]]);
        expect(askedFor(latest)).toEqual([["author", "pages"]]);
        expect(askedFor(pinned)).toEqual([["title", "year"]]);

        const list = await server.call("GET", "/v1", { key });
        expect(list.body.data.map((j: any) => j.schema)).toEqual([
          `${saved.name}-v1`,
          `${saved.name}-v2`,
          `${saved.name}-v1`,
        ]);
        const read = await server.call("GET", `/v1/${latestJob.body.job_id}`, { key });
        expect(read.body.results[0].rows.results).toEqual([{ author: "author value", pages: "pages value" }]);
      });
    });

    describe("idempotency", () => {
      it("answers the same key and body with the first response, marked replayed, and makes one job", async () => {
        const { key } = await server.workspace();
        const body = { videos: [newVideoId()], schema };
        const headers = { "idempotency-key": "order-42" };
        const first = await submit(key, body, headers);
        expect(first.status, first.text).toBe(202);
        expect(first.headers.get("idempotent-replayed")).toBeNull();
        const again = await submit(key, body, headers);
        expect(again.status, again.text).toBe(202);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(again.body).toEqual(first.body);
        expect(await jobTotal(key)).toBe(1);
      });

      it("refuses the same key with a different body with 409 idempotency_conflict", async () => {
        const { key } = await server.workspace();
        const headers = { "idempotency-key": "same-key" };
        const video = newVideoId();
        const first = await submit(key, { videos: [video], schema }, headers);
        expect(first.status, first.text).toBe(202);
        const differentBodies = [
          { videos: [newVideoId()], schema },
          { videos: [video], schema: { columns: ["product"] } },
          { videos: [video], schema, language: "en" },
        ];
        for (const body of differentBodies) {
          const answer = await submit(key, body, headers);
          expect(answer.status, answer.text).toBe(409);
          expect(answer.body.error.code).toBe("idempotency_conflict");
        }
        expect(await jobTotal(key)).toBe(1);
      });

      it("counts a body with its keys in another order as the same request", async () => {
        const { key } = await server.workspace();
        const headers = { "idempotency-key": "reordered" };
        const video = newVideoId();
        const first = await submit(key, { videos: [video], schema, language: "en" }, headers);
        expect(first.status, first.text).toBe(202);
        const reordered = await server.call("POST", "/v1", {
          key,
          headers: { ...headers, "content-type": "application/json" },
          rawBody: `{"language":"en","schema":{"columns":["product","price"]},"videos":["${video}"]}`,
        });
        expect(reordered.status, reordered.text).toBe(202);
        expect(reordered.headers.get("idempotent-replayed")).toBe("true");
        expect(reordered.body.job_id).toBe(first.body.job_id);
        expect(await jobTotal(key)).toBe(1);
      });

      it("counts a template with its columns in another order as a different request", async () => {
        // The order of a template's columns is the order of the rows' columns: a different job.
        const { key } = await server.workspace();
        const headers = { "idempotency-key": "template-order" };
        const video = newVideoId();
        const first = await submit(
          key,
          { videos: [video], schema: { template: { a: "A", b: "B" } } },
          headers,
        );
        expect(first.status, first.text).toBe(202);
        const swapped = await submit(
          key,
          { videos: [video], schema: { template: { b: "B", a: "A" } } },
          headers,
        );
        expect(swapped.status, swapped.text).toBe(409);
        expect(swapped.body.error.code).toBe("idempotency_conflict");
      });

      it("makes exactly one job of 10 concurrent submissions with one key", async () => {
        const { key } = await server.workspace();
        const body = { videos: [newVideoId(), newVideoId()], schema };
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => submit(key, body, { "idempotency-key": "burst" })),
        );
        for (const answer of answers) expect(answer.status, answer.text).toBe(202);
        expect(new Set(answers.map((a) => a.body.job_id)).size).toBe(1);
        expect(answers.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
        expect(await jobTotal(key)).toBe(1);
        // Its videos are rows once admitted, which the worker may not have done yet.
        await admitAllWaitingJobs(server.app.store);
        const stored = await server.app.store.db
          .selectFrom("videos")
          .select("id")
          .where("job_id", "=", answers[0]?.body.job_id)
          .execute();
        expect(stored).toHaveLength(2);
      });

      it("takes concurrent submissions of several workspaces, refusing only the ones that must fail", async () => {
        // On SQLite these share commits (grouped writes): a refused one must not take the others down.
        const payers = await Promise.all([server.workspace(), server.workspace(), server.workspace()]);
        const broke = await server.workspace();
        await emptyBalance(broke.workspaceId);
        const reused = { "idempotency-key": "taken" };
        const first = await submit(payers[0]?.key as string, { videos: [newVideoId()], schema }, reused);
        expect(first.status, first.text).toBe(202);

        const answers = await Promise.all([
          ...payers.flatMap(({ key }) =>
            Array.from({ length: 4 }, () => submit(key, { videos: [newVideoId(), newVideoId()], schema })),
          ),
          submit(broke.key, { videos: [newVideoId()], schema }),
          submit(payers[0]?.key as string, { videos: [newVideoId()], schema }, reused),
        ]);
        const codes = answers.map((answer) => answer.body.error?.code ?? answer.status);
        expect(codes).toEqual([
          ...Array<number>(12).fill(202),
          "insufficient_credits",
          "idempotency_conflict",
        ]);
        expect(await jobTotal(payers[0]?.key as string)).toBe(5);
        expect(await jobTotal(payers[1]?.key as string)).toBe(4);
        expect(await jobTotal(payers[2]?.key as string)).toBe(4);
        expect(await jobTotal(broke.key)).toBe(0);
        for (const answer of answers.slice(0, 12)) {
          const read = await server.call("GET", `/v1/${answer.body.job_id}`, {
            key: payers[Math.floor(answers.indexOf(answer) / 4)]?.key as string,
          });
          expect(read.status, read.text).toBe(200);
          expect(read.body.videos).toBe(2);
          const counted = Object.values(read.body.counts as Record<string, number>);
          expect(counted.reduce((sum, n) => sum + n, 0)).toBe(2);
        }
      });

      it("refuses one submission of several asked for at the same moment without losing the others", async () => {
        // Asked for in one turn, on SQLite they share one commit (grouped writes).
        const { accessCheck, jobSubmission } = server.app.services;
        const payer = await server.workspace();
        const broke = await server.workspace();
        await emptyBalance(broke.workspaceId);
        const payerCaller = await accessCheck.identify(payer.key);
        const brokeCaller = await accessCheck.identify(broke.key);
        if (!payerCaller || !brokeCaller) throw new Error("the test's keys were not recognised");
        const job = () => ({ videos: [newVideoId()], schema });
        const outcomes = await Promise.allSettled([
          jobSubmission.submit(payerCaller, job()),
          jobSubmission.submit(brokeCaller, job()),
          jobSubmission.submit(payerCaller, job()),
        ]);
        expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
        expect((outcomes[1] as PromiseRejectedResult).reason.code).toBe("insufficient_credits");
        expect(await jobTotal(payer.key)).toBe(2);
        expect(await jobTotal(broke.key)).toBe(0);
      });

      it("answers two submissions with one Idempotency-Key asked for at the same moment with one job", async () => {
        // On SQLite both run in one transaction: the second meets the first's record there, rolls back
        // to its savepoint, and once the commit is done replays the first's answer.
        const { accessCheck, jobSubmission } = server.app.services;
        const { key } = await server.workspace();
        const caller = await accessCheck.identify(key);
        if (!caller) throw new Error("the test's key was not recognised");
        const body = { videos: [newVideoId()], schema };
        const [first, second] = await Promise.all([
          jobSubmission.submit(caller, body, "same-moment"),
          jobSubmission.submit(caller, body, "same-moment"),
        ]);
        // Which one wins is the database's choice on PostgreSQL (two transactions); one of them only.
        expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
        expect(second.body).toEqual(first.body);
        expect(await jobTotal(key)).toBe(1);
      });

      it("keeps keys per workspace: another workspace's same key makes its own job", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        const body = { videos: [newVideoId()], schema };
        const headers = { "idempotency-key": "shared-name" };
        const a = await submit(mine.key, body, headers);
        const b = await submit(theirs.key, body, headers);
        expect(a.status).toBe(202);
        expect(b.status).toBe(202);
        expect(b.headers.get("idempotent-replayed")).toBeNull();
        expect(b.body.job_id).not.toBe(a.body.job_id);
        expect(await jobTotal(mine.key)).toBe(1);
        expect(await jobTotal(theirs.key)).toBe(1);
      });
    });

    describe("limits and credits", () => {
      it("answers 403 plan_limit past the plan's videos per job (free: 11 refused, 10 taken)", async () => {
        const { key } = await server.workspace("free");
        const videos = Array.from({ length: 11 }, () => newVideoId());
        const refused = await submit(key, { videos, schema });
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body.error.code).toBe("plan_limit");
        expect(refused.body.error.param).toBe("videos");
        expect(await jobTotal(key)).toBe(0);
        const taken = await submit(key, { videos: videos.slice(0, 10), schema });
        expect(taken.status, taken.text).toBe(202);
        expect(taken.body.videos).toBe(10);
      });

      it("answers 402 insufficient_credits when the balance is 0, creating no job", async () => {
        const { key, workspaceId } = await server.workspace();
        await emptyBalance(workspaceId);
        const answer = await submit(key, { videos: [newVideoId()], schema });
        expect(answer.status, answer.text).toBe(402);
        expect(answer.body.error.code).toBe("insufficient_credits");
        expect(await jobTotal(key)).toBe(0);
      });

      it("answers 402 hard_cap_reached once used_this_cycle has reached hard_cap, creating no job", async () => {
        const { key } = await server.workspace();
        const capped = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 0 } });
        expect(capped.status, capped.text).toBe(200);
        const answer = await submit(key, { videos: [newVideoId()], schema });
        expect(answer.status, answer.text).toBe(402);
        expect(answer.body.error.code).toBe("hard_cap_reached");
        expect(await jobTotal(key)).toBe(0);
        // Lifting the cap lets the same submission through.
        await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: null } });
        expect((await submit(key, { videos: [newVideoId()], schema })).status).toBe(202);
      });

      it("answers 503 extraction_unavailable on a server with no model configured, creating no job", async () => {
        const plain = await startTestServer(dialect.name);
        try {
          const { key } = await plain.workspace();
          const answer = await plain.call("POST", "/v1", { key, body: { videos: [newVideoId()], schema } });
          expect(answer.status, answer.text).toBe(503);
          expect(answer.body.error.code).toBe("extraction_unavailable");
          const list = await plain.call("GET", "/v1", { key });
          expect(list.body.pagination.total).toBe(0);
          const stored = await plain.app.store.db.selectFrom("jobs").select("id").execute();
          expect(stored).toEqual([]);
        } finally {
          await plain.close();
        }
      });
    });
  });
}
