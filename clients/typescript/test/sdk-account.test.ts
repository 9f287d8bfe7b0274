// The SDK's usage, schemas, keys and webhooks methods against the real server (SQLite and PostgreSQL),
// each with the errors its endpoints answer, including a real rate limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlanTable } from "../../../src/domain/plans.js";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { startTestServer, testPlans, type TestServer } from "../../../test/support/test-server.js";
import { clientFor, expectApiError, failure } from "./client-support.js";

const schema = { columns: ["product", "price"] };

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `vr.usage, schemas, keys, webhooks on ${dialectTitle(dialect)}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(dialect.name, {}, { work: false });
      });
      afterAll(() => server?.close());
      const client = async (plan = "pro") => clientFor(server.url, (await server.workspace(plan)).key);

      it("reads usage and sets and removes the hard cap", async () => {
        const vr = await client();
        const usage = await vr.usage.get();
        expect(usage.plan.id).toBe("pro");
        expect(usage.credits.hard_cap).toBeNull();
        expect((await vr.usage.setHardCap(250)).credits.hard_cap).toBe(250);
        expect((await vr.usage.get()).credits.hard_cap).toBe(250);
        expect((await vr.usage.setHardCap(null)).credits.hard_cap).toBeNull();
        await expectApiError(vr.usage.setHardCap(-1), {
          code: "invalid_request",
          status: 400,
          param: "hard_cap",
        });
      });

      it("saves, lists, reads and versions schemas", async () => {
        const vr = await client();
        const created = await vr.schemas.create({ name: "products", description: "Things sold", schema });
        expect(created).toEqual({ id: expect.stringMatching(/^sch_/), name: "products", version: 1 });
        const published = await vr.schemas.publishVersion(created.id, {
          schema: { template: { product: "the product's name" } },
        });
        expect(published.version).toBe(2);
        const detail = await vr.schemas.get(created.id);
        expect(detail.latest_version).toBe(2);
        expect(detail.versions.map((v) => v.label)).toEqual(["products-v1", "products-v2"]);
        expect((await vr.schemas.list()).data.map((s) => s.label)).toEqual(["products-v2"]);
        await expectApiError(vr.schemas.create({ name: "products", schema }), {
          code: "schema_name_taken",
          status: 409,
          param: "name",
        });
        await expectApiError(vr.schemas.get("sch_missing"), { code: "schema_not_found", status: 404 });
        await expectApiError(vr.schemas.publishVersion("sch_missing", { schema }), {
          code: "schema_not_found",
          status: 404,
        });
        await expectApiError(vr.schemas.create({ name: "Not Valid", schema }), {
          code: "invalid_request",
          status: 400,
          param: "name",
        });
      });

      it("creates, lists and revokes keys; a revoked key is refused", async () => {
        const vr = await client();
        const created = await vr.keys.create({ label: "ci", environment: "test" });
        expect(created.key).toMatch(/^vr_test_/);
        const listed = await vr.keys.list();
        expect(listed.data.find((k) => k.id === created.id)).toMatchObject({ label: "ci", revoked_at: null });
        const other = clientFor(server.url, created.key);
        expect((await other.usage.get()).plan.id).toBe("pro");
        await vr.keys.revoke(created.id);
        await vr.keys.revoke(created.id);
        expect((await vr.keys.list()).data.find((k) => k.id === created.id)?.revoked_at).not.toBeNull();
        await expectApiError(other.usage.get(), { code: "unauthorized", status: 401 });
        await expectApiError(vr.keys.revoke("key_missing"), { code: "key_not_found", status: 404 });
        const free = await client("free");
        await free.keys.create();
        await expectApiError(free.keys.create(), { code: "plan_limit", status: 403 });
      });

      it("creates, lists, pauses, re-enables and deletes webhook endpoints", async () => {
        const vr = await client();
        const created = await vr.webhooks.create({ url: "https://example.com/hook", events: ["job.failed"] });
        expect(created.secret).toMatch(/^whsec_/);
        expect((await vr.webhooks.list()).data).toEqual([
          expect.objectContaining({ id: created.id, events: ["job.failed"], disabled: false }),
        ]);
        expect((await vr.webhooks.update(created.id, { disabled: true })).disabled).toBe(true);
        expect((await vr.webhooks.update(created.id, { disabled: false })).disabled).toBe(false);
        const attempts = await vr.webhooks.attempts(created.id, { limit: 10 });
        expect(attempts).toEqual({
          data: [],
          pagination: { total: 0, limit: 10, offset: 0, has_more: false },
        });
        await expectApiError(vr.webhooks.resend(created.id, "dlv_missing"), {
          code: "delivery_not_found",
          status: 404,
        });
        await vr.webhooks.delete(created.id);
        expect((await vr.webhooks.list()).data).toEqual([]);
        await expectApiError(vr.webhooks.delete(created.id), { code: "webhook_not_found", status: 404 });
        await expectApiError(vr.webhooks.update(created.id, { disabled: true }), {
          code: "webhook_not_found",
          status: 404,
        });
        await expectApiError(vr.webhooks.attempts(created.id), { code: "webhook_not_found", status: 404 });
        await expectApiError(vr.webhooks.create({ url: "http://example.com/hook" }), {
          code: "invalid_request",
          status: 400,
          param: "url",
        });
        await expectApiError((await client("free")).webhooks.create({ url: "https://example.com/hook" }), {
          code: "plan_limit",
          status: 403,
        });
      });
    },
  );

  describe.skipIf(dialect.skipReason !== null)(`the rate limit on ${dialectTitle(dialect)}`, () => {
    it("is rate_limited with the rate-limit headers once the budget is spent (no retries asked)", async () => {
      const plans = { ...testPlans, tiny: { ...testPlans.free, name: "Tiny", requests_per_minute: 2 } };
      const limited = await startTestServer(
        dialect.name,
        { plans: parsePlanTable(plans, "test plans") },
        { work: false },
      );
      try {
        const vr = clientFor(limited.url, (await limited.workspace("tiny")).key, { maxRetries: 0 });
        // A fixed window may turn over between calls: keep calling until one is refused (a few at most).
        let refused;
        for (let call = 0; call < 10 && !refused; call++) {
          refused = await vr.usage.get().then(
            () => undefined,
            (error: unknown) => error,
          );
        }
        const error = await failure(Promise.reject(refused));
        expect(error).toMatchObject({ code: "rate_limited", status: 429 });
        expect(error.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
        expect(error.retryAfterSeconds).toBeGreaterThan(0);
      } finally {
        await limited.close();
      }
    });
  });
}
