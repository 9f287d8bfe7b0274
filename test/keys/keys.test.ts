// `/v1/keys`: listing, creating and revoking API keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`API keys on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("creates a key whose full value is shown once and which works at once", async () => {
      const { key } = await server.workspace();
      const created = await server.call("POST", "/v1/keys", { key, body: { label: "ci", note: "for CI" } });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(["id", "key", "label"]);
      expect(created.body.key).toMatch(/^vr_live_[0-9A-Za-z]{32}$/);
      expect(created.body.id).toMatch(/^key_/);
      expect(created.body.label).toBe("ci");

      const list = await server.call("GET", "/v1/keys", { key: created.body.key });
      expect(list.status).toBe(200);
      const listed = list.body.data.find((k: { id: string }) => k.id === created.body.id);
      expect(Object.keys(listed).sort()).toEqual([
        "created_at",
        "environment",
        "id",
        "label",
        "last_used_at",
        "masked_key",
        "revoked_at",
      ]);
      expect(listed.masked_key).toBe(`vr_live_****${created.body.key.slice(-4)}`);
      expect(listed.revoked_at).toBeNull();
      expect(listed.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(list.text).not.toContain(created.body.key);
      expect(list.text).not.toContain("for CI");
    });

    it("gives test keys the vr_test_ prefix", async () => {
      const { key } = await server.workspace();
      const created = await server.call("POST", "/v1/keys", { key, body: { environment: "test" } });
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^vr_test_[0-9A-Za-z]{32}$/);
      const list = await server.call("GET", "/v1/keys", { key });
      const listed = list.body.data.find((k: { id: string }) => k.id === created.body.id);
      expect(listed.environment).toBe("test");
      expect(listed.masked_key).toMatch(/^vr_test_\*{4}.{4}$/);
    });

    it("accepts a creation with no body at all", async () => {
      const { key } = await server.workspace();
      const created = await server.call("POST", "/v1/keys", { key });
      expect(created.status).toBe(201);
      expect(created.body.label).toBe("");
    });

    it("records last_used_at when a key is used", async () => {
      const { key } = await server.workspace();
      const created = await server.call("POST", "/v1/keys", { key });
      let list = await server.call("GET", "/v1/keys", { key });
      expect(list.body.data.find((k: { id: string }) => k.id === created.body.id).last_used_at).toBeNull();
      await server.call("GET", "/v1/keys", { key: created.body.key });
      list = await server.call("GET", "/v1/keys", { key });
      expect(list.body.data.find((k: { id: string }) => k.id === created.body.id).last_used_at).toMatch(
        /^\d{4}-/,
      );
    });

    it("refuses a revoked key on the very next request, and lists it with revoked_at", async () => {
      const { key } = await server.workspace();
      const second = await server.call("POST", "/v1/keys", { key });
      expect((await server.call("GET", "/v1/keys", { key: second.body.key })).status).toBe(200);
      const revoked = await server.call("DELETE", `/v1/keys/${second.body.id}`, { key });
      expect(revoked.status).toBe(204);
      expect(revoked.text).toBe("");
      const refused = await server.call("GET", "/v1/keys", { key: second.body.key });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe("unauthorized");
      const list = await server.call("GET", "/v1/keys", { key });
      expect(list.body.data.find((k: { id: string }) => k.id === second.body.id).revoked_at).toMatch(
        /^\d{4}-/,
      );
      // Revoking again changes nothing and still succeeds.
      expect((await server.call("DELETE", `/v1/keys/${second.body.id}`, { key })).status).toBe(204);
    });

    it("enforces the plan's allowance of active keys, and frees a place on revocation", async () => {
      const { key } = await server.workspace("free"); // Free allows 2 keys; the first exists already.
      const second = await server.call("POST", "/v1/keys", { key });
      expect(second.status).toBe(201);
      const third = await server.call("POST", "/v1/keys", { key });
      expect(third.status).toBe(403);
      expect(third.body.error.code).toBe("plan_limit");
      await server.call("DELETE", `/v1/keys/${second.body.id}`, { key });
      expect((await server.call("POST", "/v1/keys", { key })).status).toBe(201);
    });

    it("never lets concurrent creations pass the allowance", async () => {
      const { key } = await server.workspace("free");
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => server.call("POST", "/v1/keys", { key })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 403)).toHaveLength(5);
    });

    it("answers 404 key_not_found for an unknown key and for another workspace's", async () => {
      const mine = await server.workspace();
      const theirs = await server.workspace();
      const theirKey = await server.call("POST", "/v1/keys", { key: theirs.key });
      for (const id of ["key_unknown", theirKey.body.id]) {
        const answer = await server.call("DELETE", `/v1/keys/${id}`, { key: mine.key });
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe("key_not_found");
      }
      // The other workspace's key still works, and is not listed for this one.
      expect((await server.call("GET", "/v1/keys", { key: theirKey.body.key })).status).toBe(200);
      const list = await server.call("GET", "/v1/keys", { key: mine.key });
      expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(theirKey.body.id);
    });

    describe("validation", () => {
      const cases: [string, unknown, string][] = [
        ["a label over 100 characters", { label: "x".repeat(101) }, "label"],
        ["a label that is not a string", { label: 5 }, "label"],
        ["a note over 200 characters", { note: "x".repeat(201) }, "note"],
        ["an unknown environment", { environment: "prod" }, "environment"],
        ["an unknown field", { labl: "x" }, "labl"],
        ["a body that is not an object", ["x"], ""],
      ];
      for (const [title, body, param] of cases) {
        it(`refuses ${title}`, async () => {
          const { key } = await server.workspace();
          const answer = await server.call("POST", "/v1/keys", { key, body });
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          if (param) expect(answer.body.error.param).toBe(param);
          else expect(answer.body.error.param).toBeUndefined();
          expect(answer.body.error.message.length).toBeGreaterThan(10);
        });
      }

      it("accepts a label of exactly 100 characters and a note of exactly 200", async () => {
        const { key } = await server.workspace();
        const answer = await server.call("POST", "/v1/keys", {
          key,
          body: { label: "x".repeat(100), note: "n".repeat(200) },
        });
        expect(answer.status).toBe(201);
      });
    });
  });
}
