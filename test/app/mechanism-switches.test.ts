// With every performance mechanism switched off (docs/performance.md), the API answers as it does with
// them on: submissions that arrive together, a job worked and settled, its rows handed over once,
// credits charged, usage, lists and a revoked key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MechanismSwitches, mechanismVariables } from "../../src/mechanism-switches.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";

const allOff = Object.fromEntries(
  Object.keys(mechanismVariables).map((key) => [key, false]),
) as unknown as MechanismSwitches;

const schema = { columns: ["product", "price"] };

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`every mechanism off on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, {
        config: { mechanisms: allOff, rememberAnswers: false },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("accepts submissions that arrive together, each its own job with its own place", async () => {
      const { key } = await server.workspace();
      const submitted = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          server.call("POST", "/v1", { key, body: { videos: [`off${String(i).padStart(8, "0")}`], schema } }),
        ),
      );
      expect(submitted.map((answer) => answer.status)).toEqual(Array(8).fill(202));
      expect(new Set(submitted.map((answer) => answer.body.job_id)).size).toBe(8);
      const list = await server.call("GET", "/v1?limit=25", { key });
      expect(list.body.pagination.total).toBe(8);
    });

    it("works a job to done, charges it, and hands its rows over once", async () => {
      const { key } = await server.workspace();
      server.addCaptions("offaaaaaaaa", 90); // 2 credits
      server.addCaptions("offbbbbbbbb", 30); // 1 credit
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: ["offaaaaaaaa", "offbbbbbbbb"], schema },
      });
      expect(submitted.status, submitted.text).toBe(202);
      const settled = await server.waitForSettled(key, submitted.body.job_id);
      expect(settled.status).toBe("done");
      expect(settled.credits_charged).toBe(3);
      expect(settled.results.map((video: { rows: { results: unknown } }) => video.rows.results)).toEqual([
        [{ product: "widget", price: 5 }],
        [{ product: "widget", price: 5 }],
      ]);
      const again = await server.call("GET", `/v1/${submitted.body.job_id}`, { key });
      expect(again.body.results.map((video: { rows: unknown }) => video.rows)).toEqual([null, null]);
      const usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.status).toBe(200);
      expect(usage.body.credits.used_this_cycle).toBe(3);
      expect(usage.body.jobs).toMatchObject({ done: 1, total: 1 });
      expect(usage.body.videos_processed).toBe(2);
    });

    it("refuses a key on the request after it was revoked", async () => {
      const { key } = await server.workspace();
      const second = await server.call("POST", "/v1/keys", { key });
      expect((await server.call("GET", "/v1/usage", { key: second.body.key })).status).toBe(200);
      expect((await server.call("DELETE", `/v1/keys/${second.body.id}`, { key })).status).toBe(204);
      expect((await server.call("GET", "/v1/usage", { key: second.body.key })).status).toBe(401);
    });
  });
}
