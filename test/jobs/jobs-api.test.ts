// The jobs API over HTTP: every submission rule, saved schemas, idempotency, limits, the list and the handover.
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitAllWaitingJobs } from "../support/admissions.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelReply, type FakeModelRequest, messageOf, rowsReply } from "../support/fake-model.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { startTestServer } from "../support/test-server.js";

const schema = { columns: ["product", "price"] };
const timestamp = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A YouTube-shaped id no other test uses (letters and digits only, so prefixes are plain). */
function newVideoId(): string {
  return [...randomBytes(11)].map((byte) => idAlphabet[byte % idAlphabet.length]).join("");
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something other than undefined; bounded in time. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting (${timeoutMs} ms) for ${what}`);
    await pause(50);
  }
}

// Videos whose captions carry a hold marker keep the model waiting until the test lets them go, so a
// job stays running exactly as long as a test needs it to, with no timing involved.
const holds = new Map<string, Promise<void>>();
const releases: (() => void)[] = [];

function hold(): { marker: string; release: () => void } {
  const marker = `HOLD${randomBytes(6).toString("hex")}`;
  let release: () => void = () => {};
  holds.set(
    marker,
    new Promise<void>((resolve) => {
      release = resolve;
    }),
  );
  releases.push(release);
  return { marker, release };
}

// Videos whose captions say BIGROWS get 2,000 rows of 6,000 characters each: a read of about 12 MB,
// far more than the loopback socket buffers hold, so a client that hangs up early really misses it.
const bigRowCount = 2000;
let bigReply: FakeModelReply | undefined;
function bigRows(): FakeModelReply {
  bigReply ??= rowsReply(
    Array.from({ length: bigRowCount }, (_, i) => ({ product: `item ${i} ${"x".repeat(6000)}`, price: i })),
  );
  return bigReply;
}

/** The columns a model request asks for, from its structured-output schema. */
function columnsAsked(request: FakeModelRequest): string[] {
  return request.body?.response_format?.json_schema?.schema?.properties?.rows?.items?.required ?? [];
}

/** One row in the asked columns: a widget at 5 for the usual schema, `<column> value` for any other column. */
function widgetRow(request: FakeModelRequest): Record<string, unknown> {
  const value = (column: string) =>
    column === "product" ? "widget" : column === "price" ? 5 : `${column} value`;
  return Object.fromEntries(columnsAsked(request).map((column) => [column, value(column)]));
}

async function modelBehaviour(request: FakeModelRequest): Promise<FakeModelReply> {
  const transcript = messageOf(request, "user");
  for (const [marker, gate] of holds) {
    if (transcript.includes(marker)) {
      await gate;
      return rowsReply([{ product: "held", price: 1 }]);
    }
  }
  if (transcript.includes("BIGROWS")) return bigRows();
  return rowsReply([widgetRow(request)]);
}

/** Reads only the start of the response to `GET path`, then destroys the socket: a client that went away. */
function readStartAndHangUp(baseUrl: string, path: string, key: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 10 s"));
    }, 10_000);
    socket.once("data", (chunk: Buffer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(chunk.toString("latin1"));
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  });
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`jobs API on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, { respond: modelBehaviour });
    });
    afterAll(async () => {
      for (const release of releases) release();
      await server?.close();
    });

    /** A video id with captions of its own; the transcript names the id, so its model requests can be found. */
    const videoWithCaptions = (extra = "") => {
      const id = newVideoId();
      server.addCaptions(id, 30, [`We sell the widget for five dollars. ${id} ${extra}`.trim()]);
      return id;
    };
    const submit = (key: string, body: unknown, headers?: Record<string, string>) =>
      server.call("POST", "/v1", { key, body, headers });
    const emptyBalance = (workspaceId: string) =>
      server.app.store.db
        .updateTable("workspaces")
        .set({ balance: 0 })
        .where("id", "=", workspaceId)
        .execute();
    const jobTotal = async (key: string) => {
      const list = await server.call("GET", "/v1", { key });
      expect(list.status, list.text).toBe(200);
      return list.body.pagination.total as number;
    };
    /** Waits until the job has settled, by listing it: never by reading it, which would take the rows. */
    const settledByList = (key: string, jobId: string) =>
      waitFor(`job ${jobId} to settle`, async () => {
        const list = await server.call("GET", `/v1?search=${jobId}`, { key });
        const item = list.body.data?.[0];
        return item && item.status !== "processing" ? item : undefined;
      });
    const modelRequestsFor = (videoId: string) =>
      server.model.requests.filter((request) => messageOf(request, "user").includes(videoId));

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
        const { authenticator, jobSubmission } = server.app.services;
        const payer = await server.workspace();
        const broke = await server.workspace();
        await emptyBalance(broke.workspaceId);
        const payerCaller = await authenticator.identify(payer.key);
        const brokeCaller = await authenticator.identify(broke.key);
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
        const { authenticator, jobSubmission } = server.app.services;
        const { key } = await server.workspace();
        const caller = await authenticator.identify(key);
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

    describe("GET /v1", () => {
      it("lists exactly the documented fields, newest first, results null while running and [] once settled", async () => {
        const { key } = await server.workspace();
        const held = hold();
        try {
          const done = await submit(key, { videos: [videoWithCaptions()], schema });
          await settledByList(key, done.body.job_id);
          await pause(2); // ids are ordered by the millisecond they were made in
          const running = await submit(key, { videos: [videoWithCaptions(held.marker)], schema });
          const list = await server.call("GET", "/v1", { key });
          expect(list.status).toBe(200);
          expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
          expect(list.body.data.map((j: any) => j.job_id)).toEqual([running.body.job_id, done.body.job_id]);
          for (const item of list.body.data) {
            expect(Object.keys(item).sort()).toEqual([
              "completed_at",
              "counts",
              "created_at",
              "credits_charged",
              "job_id",
              "results",
              "schema",
              "status",
              "videos",
            ]);
            expect(item.created_at).toMatch(timestamp);
            expect(item.schema).toBe("inline");
            expect(item.videos).toBe(1);
          }
          const [runningItem, doneItem] = list.body.data;
          expect(runningItem.status).toBe("processing");
          expect(runningItem.results).toBeNull();
          expect(runningItem.completed_at).toBeNull();
          expect(runningItem.credits_charged).toBe(0);
          expect(doneItem.status).toBe("done");
          expect(doneItem.results).toEqual([]);
          expect(doneItem.completed_at).toMatch(timestamp);
          expect(doneItem.credits_charged).toBe(1);
          expect(doneItem.counts).toEqual({ queued: 0, processing: 0, done: 1, failed: 0 });
          // The list never carries rows, although the settled job's rows are still waiting to be read.
          expect(list.text).not.toContain("widget");
          expect(list.text).not.toContain('"rows"');
        } finally {
          held.release();
        }
      });

      it("filters running, succeeded and failed (any failed video), and pages them with totals", async () => {
        const { key } = await server.workspace();
        const held = hold();
        try {
          const done = await submit(key, { videos: [videoWithCaptions()], schema });
          await pause(2);
          const failed = await submit(key, { videos: [newVideoId()], schema });
          await pause(2);
          const partial = await submit(key, { videos: [videoWithCaptions(), newVideoId()], schema });
          for (const job of [done, failed, partial]) await settledByList(key, job.body.job_id);
          await pause(2);
          const running = await submit(key, { videos: [videoWithCaptions(held.marker)], schema });

          const page = async (query: string) => {
            const answer = await server.call("GET", `/v1?${query}`, { key });
            expect(answer.status, answer.text).toBe(200);
            return {
              ids: answer.body.data.map((j: any) => j.job_id),
              statuses: answer.body.data.map((j: any) => j.status),
              pagination: answer.body.pagination,
            };
          };
          const all = await page("");
          expect(all.ids).toEqual([running, partial, failed, done].map((j) => j.body.job_id));
          expect(all.statuses).toEqual(["processing", "partial", "failed", "done"]);
          expect(all.pagination).toEqual({ total: 4, limit: 25, offset: 0, has_more: false });

          const runningOnly = await page("status=running");
          expect(runningOnly.ids).toEqual([running.body.job_id]);
          expect(runningOnly.pagination.total).toBe(1);
          const succeeded = await page("status=succeeded");
          expect(succeeded.ids).toEqual([done.body.job_id]);
          expect(succeeded.pagination.total).toBe(1);
          const withFailures = await page("status=failed");
          expect(withFailures.ids).toEqual([partial.body.job_id, failed.body.job_id]);
          expect(withFailures.pagination).toEqual({ total: 2, limit: 25, offset: 0, has_more: false });
          const secondFailure = await page("status=failed&limit=1&offset=1");
          expect(secondFailure.ids).toEqual([failed.body.job_id]);
          expect(secondFailure.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
          const firstFailure = await page("status=failed&limit=1");
          expect(firstFailure.pagination.has_more).toBe(true);

          const refused = await server.call("GET", "/v1?status=done", { key });
          expect(refused.status).toBe(400);
          expect(refused.body.error.param).toBe("status");
        } finally {
          held.release();
        }
      });

      it("searches by the start of a job id, a vid_ id and a YouTube video id", async () => {
        const { key } = await server.workspace();
        const target = newVideoId();
        const other = newVideoId();
        const job = await submit(key, { videos: [newVideoId(), target], schema });
        await pause(2);
        const decoy = await submit(key, { videos: [other], schema });
        const jobId: string = job.body.job_id;
        // The videos have `vid_` ids once admitted, which the worker may not have done yet.
        await admitAllWaitingJobs(server.app.store);
        const video = await server.app.store.db
          .selectFrom("videos")
          .select("id")
          .where("job_id", "=", jobId)
          .where("platform_video_id", "=", target)
          .executeTakeFirstOrThrow();
        expect(video.id).toMatch(/^vid_/);

        const search = async (term: string) => {
          const answer = await server.call("GET", `/v1?search=${encodeURIComponent(term)}`, { key });
          expect(answer.status, answer.text).toBe(200);
          return answer.body;
        };
        for (const term of [
          jobId,
          jobId.slice(0, 20),
          video.id,
          video.id.slice(0, 20),
          target,
          target.slice(0, 7),
        ]) {
          const found = await search(term);
          expect(
            found.data.map((j: any) => j.job_id),
            term,
          ).toEqual([jobId]);
          expect(found.pagination, term).toEqual({ total: 1, limit: 25, offset: 0, has_more: false });
        }
        // "job_" and "vid_" begin every id: both jobs match, newest first.
        expect((await search("job_")).data.map((j: any) => j.job_id)).toEqual([decoy.body.job_id, jobId]);
        expect((await search("vid_")).pagination.total).toBe(2);
        const none = await search("job_zzzzzzzzzz");
        expect(none).toEqual({ data: [], pagination: { total: 0, limit: 25, offset: 0, has_more: false } });
        // A prefix is a prefix: the middle of an id matches nothing.
        expect((await search(target.slice(2, 9))).data).toEqual([]);
        const bad = await server.call("GET", "/v1?search=a%20b", { key });
        expect(bad.status).toBe(400);
        expect(bad.body.error.param).toBe("search");
      });

      it("pages 26 jobs: default limit 25, offsets and has_more right at the edges", async () => {
        const { key } = await server.workspace();
        const ids: string[] = [];
        for (let i = 0; i < 26; i++) {
          const answer = await submit(key, { videos: [newVideoId()], schema });
          expect(answer.status, answer.text).toBe(202);
          ids.unshift(answer.body.job_id);
          await pause(2);
        }
        const page = async (query: string) => {
          const answer = await server.call("GET", `/v1${query}`, { key });
          expect(answer.status, answer.text).toBe(200);
          return { ids: answer.body.data.map((j: any) => j.job_id), pagination: answer.body.pagination };
        };
        const first = await page("");
        expect(first.ids).toEqual(ids.slice(0, 25));
        expect(first.pagination).toEqual({ total: 26, limit: 25, offset: 0, has_more: true });
        const rest = await page("?offset=25");
        expect(rest.ids).toEqual(ids.slice(25));
        expect(rest.pagination).toEqual({ total: 26, limit: 25, offset: 25, has_more: false });
        expect((await page("?limit=26")).pagination.has_more).toBe(false);
        expect((await page("?limit=26")).ids).toEqual(ids);
        expect((await page("?limit=100")).ids).toEqual(ids);
        expect((await page("?limit=1")).ids).toEqual(ids.slice(0, 1));
        expect((await page("?limit=1&offset=25")).ids).toEqual(ids.slice(25));
        expect((await page("?limit=1&offset=24")).pagination.has_more).toBe(true);
        expect((await page("?limit=10&offset=10")).ids).toEqual(ids.slice(10, 20));
        const past = await page("?offset=26");
        expect(past.ids).toEqual([]);
        expect(past.pagination).toEqual({ total: 26, limit: 25, offset: 26, has_more: false });
        expect((await page("?offset=1000")).pagination).toEqual({
          total: 26,
          limit: 25,
          offset: 1000,
          has_more: false,
        });
      });

      it("refuses limits and offsets out of range, and unknown parameters, with 400 naming them", async () => {
        const { key } = await server.workspace();
        const cases: [string, string][] = [
          ["limit=0", "limit"],
          ["limit=101", "limit"],
          ["limit=-1", "limit"],
          ["limit=1.5", "limit"],
          ["limit=abc", "limit"],
          ["limit=", "limit"],
          ["offset=-1", "offset"],
          ["offset=1.5", "offset"],
          ["offset=abc", "offset"],
          ["page=2", "page"],
          ["statuss=running", "statuss"],
        ];
        for (const [query, param] of cases) {
          const answer = await server.call("GET", `/v1?${query}`, { key });
          expect(answer.status, `${query}: ${answer.text}`).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          expect(answer.body.error.param, query).toBe(param);
        }
        expect((await server.call("GET", "/v1?limit=100", { key })).status).toBe(200);
        expect((await server.call("GET", "/v1?limit=1", { key })).status).toBe(200);
      });

      it("never lists another workspace's jobs, by any filter or search", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        const video = newVideoId();
        const job = await submit(theirs.key, { videos: [video], schema });
        await settledByList(theirs.key, job.body.job_id);
        for (const query of ["", "?status=failed", `?search=${job.body.job_id}`, `?search=${video}`]) {
          const answer = await server.call("GET", `/v1${query}`, { key: mine.key });
          expect(answer.status).toBe(200);
          expect(answer.body.data, query).toEqual([]);
          expect(answer.body.pagination.total, query).toBe(0);
        }
      });
    });

    describe("GET /v1/{job_id}", () => {
      it("answers 404 job_not_found for an unknown id and for another workspace's job", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        const job = await submit(theirs.key, { videos: [newVideoId()], schema });
        for (const id of ["job_doesnotexist", job.body.job_id]) {
          const answer = await server.call("GET", `/v1/${id}`, { key: mine.key });
          expect(answer.status, answer.text).toBe(404);
          expect(answer.body.error.code).toBe("job_not_found");
        }
        // The owner still sees it.
        expect((await server.call("GET", `/v1/${job.body.job_id}`, { key: theirs.key })).status).toBe(200);
      });

      it("does not use the handover up when the settled job is listed: the first read still gets the rows", async () => {
        const { key } = await server.workspace();
        const job = await submit(key, { videos: [videoWithCaptions()], schema });
        const jobId: string = job.body.job_id;
        await settledByList(key, jobId);
        for (const query of ["", "?status=succeeded", `?search=${jobId}`]) {
          expect((await server.call("GET", `/v1${query}`, { key })).status).toBe(200);
        }
        const first = await server.call("GET", `/v1/${jobId}`, { key });
        expect(first.body.results[0].rows).toEqual({ results: [{ product: "widget", price: 5 }] });
        const second = await server.call("GET", `/v1/${jobId}`, { key });
        expect(second.body.results[0].rows).toBeNull();
      });

      it("keeps the rows for the next read when the client goes away before the response is written", async () => {
        const { key } = await server.workspace();
        const job = await submit(key, { videos: [videoWithCaptions("BIGROWS")], schema });
        const jobId: string = job.body.job_id;
        const settled = await settledByList(key, jobId);
        expect(settled.status).toBe("done");

        const start = await readStartAndHangUp(server.url, `/v1/${jobId}`, key);
        // The server did answer (so that read took the handover) before the client left.
        expect(start).toMatch(/^HTTP\/1\.1 200 /);

        // The undelivered read is undone once the server notices; until then a read finds no rows.
        const delivered = await waitFor(
          "the rows to be handed over again",
          async () => {
            const read = await server.call("GET", `/v1/${jobId}`, { key });
            expect(read.status).toBe(200);
            return read.body.results[0].rows === null ? undefined : read;
          },
          10_000,
        );
        const rows = delivered.body.results[0].rows.results;
        expect(rows).toHaveLength(bigRowCount);
        expect(rows[0].product).toBe(`item 0 ${"x".repeat(6000)}`);
        expect(rows[bigRowCount - 1].price).toBe(bigRowCount - 1);
        expect(delivered.body.results[0].usage.row_count).toBe(bigRowCount);

        // That read was delivered: no read receives the rows again, and storage no longer holds them.
        const later = await Promise.all(
          Array.from({ length: 5 }, () => server.call("GET", `/v1/${jobId}`, { key })),
        );
        for (const read of later) expect(read.body.results[0].rows).toBeNull();
        const stored = await server.app.store.db
          .selectFrom("videos")
          .select(["rows", "submitted_url"])
          .where("job_id", "=", jobId)
          .execute();
        expect(stored).toEqual([{ rows: null, submitted_url: null }]);
      });
    });
  });
}
