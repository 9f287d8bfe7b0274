// `/v1/webhooks`: creating, listing, pausing and removing endpoints, every validation rule, plan limits,
// and other workspaces' endpoints and deliveries staying out of reach; http:// only for private receivers
// in development (VIDROWS_WEBHOOK_ALLOW_PRIVATE=1), delivered there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { type ApiResponse, startTestServer, type TestServer } from "../support/test-server.js";
import { waitUntil } from "../support/waiting.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

const allEvents = ["job.completed", "job.failed", "batch.completed"];
const goodUrl = "https://hooks.example.com/vidrows";

function expectError(answer: ApiResponse, status: number, code: string, param?: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body.error.code, answer.text).toBe(code);
  expect(answer.body.error.request_id).toBe(answer.headers.get("x-request-id"));
  if (param !== undefined) expect(answer.body.error.param, answer.text).toBe(param);
}

/** Bodies `POST /v1/webhooks` refuses, each with the field it must blame. */
const badBodies: [string, unknown, string][] = [
  ["no url", {}, "url"],
  ["no url but events", { events: ["job.failed"] }, "url"],
  ["a url that is a number", { url: 5 }, "url"],
  ["a url that is null", { url: null }, "url"],
  ["a url that is an array", { url: [goodUrl] }, "url"],
  ["an empty url", { url: "" }, "url"],
  ["a url that is not a URL", { url: "not a url" }, "url"],
  ["a relative url", { url: "/hooks" }, "url"],
  ["https:// and nothing else", { url: "https://" }, "url"],
  ["an http:// url", { url: "http://hooks.example.com/vidrows" }, "url"],
  ["an ftp:// url", { url: "ftp://hooks.example.com/vidrows" }, "url"],
  ["a url with a user and password", { url: "https://user:secret@hooks.example.com/vidrows" }, "url"],
  ["a url with a user name only", { url: "https://user@hooks.example.com/vidrows" }, "url"],
  ["a url with a leading space", { url: ` ${goodUrl}` }, "url"],
  ["a url with a trailing space", { url: `${goodUrl} ` }, "url"],
  ["a url with a leading tab", { url: `\t${goodUrl}` }, "url"],
  ["a url with a leading CR LF", { url: `\r\n${goodUrl}` }, "url"],
  ["a url with a trailing line break", { url: `${goodUrl}\n` }, "url"],
  ["a url with a tab inside", { url: "https://hooks.exa\tmple.com/vidrows" }, "url"],
  ["an http:// url to a public address", { url: "http://203.0.113.7/vidrows" }, "url"],
  ["an http:// url to a name that is not localhost", { url: "http://receiver.internal/vidrows" }, "url"],
  ["a url of 2049 characters", { url: `https://hooks.example.com/${"a".repeat(2049 - 26)}` }, "url"],
  ["empty events", { url: goodUrl, events: [] }, "events"],
  ["an unknown event type", { url: goodUrl, events: ["job.completed", "job.started"] }, "events[1]"],
  ["an event type in the wrong case", { url: goodUrl, events: ["Job.Completed"] }, "events[0]"],
  ["a duplicate event type", { url: goodUrl, events: ["job.failed", "job.failed"] }, "events"],
  ["events as a string", { url: goodUrl, events: "job.completed" }, "events"],
  ["events as null", { url: goodUrl, events: null }, "events"],
  ["an event that is not a string", { url: goodUrl, events: [1] }, "events[0]"],
  ["an unknown field", { url: goodUrl, secret: "whsec_mine" }, "secret"],
  ["a misspelt field", { url: goodUrl, event: ["job.failed"] }, "event"],
];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`webhook endpoints on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        config: { webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 } },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
      server.addCaptions("eeeeeeeeeee", 30);
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    const create = (key: string, body: unknown) => server.call("POST", "/v1/webhooks", { key, body });

    it("creates an endpoint: 201 with its id, url and a whsec_ secret of 32 random bytes", async () => {
      const { key } = await server.workspace();
      const created = await create(key, { url: goodUrl });
      expect(created.status, created.text).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(["id", "secret", "url"]);
      expect(created.body.id).toMatch(/^wh_[0-9a-z]{26}$/);
      expect(created.body.url).toBe(goodUrl);
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.body.secret.slice("whsec_".length), "base64")).toHaveLength(32);
      const other = await create(key, { url: goodUrl });
      expect(other.body.secret).not.toBe(created.body.secret);
      expect(other.body.id).not.toBe(created.body.id);
    });

    it("lists endpoints with exactly their fields, never the secret; events default to all three", async () => {
      const { key } = await server.workspace();
      const all = await create(key, { url: goodUrl });
      const failedOnly = await create(key, { url: `${goodUrl}/failed`, events: ["job.failed"] });
      const two = await create(key, { url: `${goodUrl}/two`, events: ["batch.completed", "job.completed"] });
      const listed = await server.call("GET", "/v1/webhooks", { key });
      expect(listed.status).toBe(200);
      expect(Object.keys(listed.body)).toEqual(["data"]);
      expect(listed.body.data).toHaveLength(3);
      for (const endpoint of listed.body.data) {
        expect(Object.keys(endpoint).sort()).toEqual(["created_at", "disabled", "events", "id", "url"]);
        expect(endpoint.disabled).toBe(false);
        expect(endpoint.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      }
      const byId = new Map(listed.body.data.map((e: any) => [e.id, e]));
      expect(byId.get(all.body.id)).toMatchObject({ url: goodUrl, events: allEvents });
      expect(byId.get(failedOnly.body.id)).toMatchObject({
        url: `${goodUrl}/failed`,
        events: ["job.failed"],
      });
      expect(byId.get(two.body.id)).toMatchObject({ events: ["batch.completed", "job.completed"] });
      for (const secret of [all.body.secret, failedOnly.body.secret, two.body.secret]) {
        expect(listed.text).not.toContain(secret);
        expect(listed.text).not.toContain(secret.slice("whsec_".length));
      }
      expect(listed.text).not.toContain("whsec_");
      expect(listed.text).not.toContain("secret");
    });

    it("lists only the caller's workspace's endpoints", async () => {
      const mine = await server.workspace();
      const theirs = await server.workspace();
      await create(theirs.key, { url: goodUrl });
      expect((await server.call("GET", "/v1/webhooks", { key: mine.key })).body).toEqual({ data: [] });
      const own = await create(mine.key, { url: goodUrl });
      const listed = await server.call("GET", "/v1/webhooks", { key: mine.key });
      expect(listed.body.data.map((e: any) => e.id)).toEqual([own.body.id]);
    });

    it("accepts a url of exactly 2048 characters, with a port, a query and an IP address", async () => {
      const { key } = await server.workspace();
      const long = `https://hooks.example.com/${"a".repeat(2048 - 26)}`;
      expect(long).toHaveLength(2048);
      for (const url of [long, "https://hooks.example.com:8443/x?token=1", "https://203.0.113.7/hooks"]) {
        const created = await create(key, { url });
        expect(created.status, `${url.slice(0, 60)}: ${created.text}`).toBe(201);
        expect(created.body.url).toBe(url);
      }
    });

    it("refuses whitespace around or inside a url, saying which character and where", async () => {
      const { key } = await server.workspace();
      const cases: [string, string][] = [
        [` ${goodUrl}`, "a space at position 1"],
        [`\t${goodUrl}`, "a tab at position 1"],
        [`\r\n${goodUrl}`, "a line break (CR) at position 1"],
        [`${goodUrl}\n`, "a line break (LF) at position 34"],
      ];
      for (const [url, stray] of cases) {
        const answer = await create(key, { url });
        expectError(answer, 400, "invalid_request", "url");
        expect(answer.body.error.message).toBe(
          `\`url\` has ${stray}; send the URL alone, with no spaces, tabs, line breaks or invisible characters around or inside it.`,
        );
      }
      expect((await server.call("GET", "/v1/webhooks", { key })).body.data).toEqual([]);
    });

    it("accepts http:// for localhost and literal loopback or private addresses while private targets are allowed", async () => {
      const { key } = await server.workspace("scale");
      const local = [
        "http://localhost:3000/hooks",
        "http://127.0.0.1:3000/hooks",
        "http://127.8.9.10/hooks",
        "http://[::1]:3000/hooks",
        "http://10.1.2.3/hooks",
        "http://172.20.0.5:8080/hooks",
        "http://192.168.1.20/hooks",
        "http://100.100.1.2/hooks",
        "http://169.254.10.20/hooks",
        "http://[fd12:3456::1]/hooks",
        "http://[fe80::1]/hooks",
      ];
      for (const url of local) {
        const created = await create(key, { url });
        expect(created.status, `${url}: ${created.text}`).toBe(201);
        expect(created.body.url).toBe(url);
      }
      const elsewhere: [string, string][] = [
        ["http://hooks.example.com/vidrows", "hooks.example.com"],
        ["http://8.8.8.8/vidrows", "8.8.8.8"],
        ["http://receiver.internal/vidrows", "receiver.internal"],
        ["http://localhost.example.com/vidrows", "localhost.example.com"],
        ["http://224.0.0.1/vidrows", "224.0.0.1"],
        ["http://0.0.0.0/vidrows", "0.0.0.0"],
      ];
      for (const [url, host] of elsewhere) {
        const answer = await create(key, { url });
        expectError(answer, 400, "invalid_request", "url");
        expect(answer.body.error.message).toBe(
          `\`url\` must be an https:// URL; http:// is accepted only for localhost or a literal loopback or private address (such as http://127.0.0.1:3000/hooks), and ${host} is not one.`,
        );
      }
    });

    it("delivers to an http:// receiver on loopback while private targets are allowed", async () => {
      const plain = await startWebhookReceiver({ plain: true });
      try {
        const { key } = await server.workspace();
        const path = `/plain-${dialect.name}`;
        const endpoint = await create(key, { url: `${plain.origin}${path}`, events: ["job.completed"] });
        expect(endpoint.status, endpoint.text).toBe(201);
        expect(endpoint.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/plain-/);
        const job = await server.call("POST", "/v1", {
          key,
          body: { videos: ["eeeeeeeeeee"], schema: { columns: ["product"] } },
        });
        expect(job.status, job.text).toBe(202);
        const [received] = await plain.waitForAt(path, 1);
        expect(JSON.parse(received!.body)).toMatchObject({
          type: "job.completed",
          data: { job_id: job.body.job_id },
        });
      } finally {
        await plain.close();
      }
    });

    describe("refuses every invalid body with 400 invalid_request naming the field", () => {
      for (const [title, body, param] of badBodies) {
        it(title, async () => {
          const { key } = await server.workspace();
          const answer = await create(key, body);
          expectError(answer, 400, "invalid_request", param);
          expect(answer.body.error.message.length).toBeGreaterThan(10);
          // Nothing was created by the refused request.
          expect((await server.call("GET", "/v1/webhooks", { key })).body.data).toEqual([]);
        });
      }
    });

    it("refuses webhooks on the Free plan with 403 plan_limit", async () => {
      const { key } = await server.workspace("free");
      const answer = await create(key, { url: goodUrl });
      expectError(answer, 403, "plan_limit");
      expect(answer.body.error.message).toMatch(/Free/);
      expect((await server.call("GET", "/v1/webhooks", { key })).body.data).toEqual([]);
    });

    it("refuses an endpoint past the plan's count with 403 plan_limit, and takes one after a removal", async () => {
      const { key } = await server.workspace("pro");
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const created = await create(key, { url: `${goodUrl}/${i}` });
        expect(created.status, created.text).toBe(201);
        ids.push(created.body.id);
      }
      expectError(await create(key, { url: `${goodUrl}/11` }), 403, "plan_limit");
      expect((await server.call("GET", "/v1/webhooks", { key })).body.data).toHaveLength(10);
      // A disabled endpoint still counts: pausing is not removing.
      await server.call("PATCH", `/v1/webhooks/${ids[0]}`, { key, body: { disabled: true } });
      expectError(await create(key, { url: `${goodUrl}/11` }), 403, "plan_limit");
      expect((await server.call("DELETE", `/v1/webhooks/${ids[1]}`, { key })).status).toBe(204);
      expect((await create(key, { url: `${goodUrl}/11` })).status).toBe(201);
      expectError(await create(key, { url: `${goodUrl}/12` }), 403, "plan_limit");
    });

    it("never lets concurrent creations pass the plan's count", async () => {
      const { key } = await server.workspace("pro");
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => create(key, { url: `${goodUrl}/${i}` })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 403)).toHaveLength(6);
      for (const answer of answers.filter((a) => a.status === 403)) {
        expect(answer.body.error.code).toBe("plan_limit");
      }
      expect((await server.call("GET", "/v1/webhooks", { key })).body.data).toHaveLength(10);
    });

    it("pauses and re-enables an endpoint with PATCH, answering the endpoint", async () => {
      const { key } = await server.workspace();
      const created = await create(key, { url: goodUrl, events: ["job.failed"] });
      const paused = await server.call("PATCH", `/v1/webhooks/${created.body.id}`, {
        key,
        body: { disabled: true },
      });
      expect(paused.status, paused.text).toBe(200);
      expect(Object.keys(paused.body).sort()).toEqual(["created_at", "disabled", "events", "id", "url"]);
      expect(paused.body).toMatchObject({
        id: created.body.id,
        url: goodUrl,
        events: ["job.failed"],
        disabled: true,
      });
      expect((await server.call("GET", "/v1/webhooks", { key })).body.data[0].disabled).toBe(true);
      // Pausing twice is harmless.
      const again = await server.call("PATCH", `/v1/webhooks/${created.body.id}`, {
        key,
        body: { disabled: true },
      });
      expect(again.body.disabled).toBe(true);
      const resumed = await server.call("PATCH", `/v1/webhooks/${created.body.id}`, {
        key,
        body: { disabled: false },
      });
      expect(resumed.status).toBe(200);
      expect(resumed.body.disabled).toBe(false);
      expect((await server.call("GET", "/v1/webhooks", { key })).body.data[0].disabled).toBe(false);
      expect(resumed.text).not.toContain("whsec_");
    });

    it("refuses a PATCH body that is not exactly {disabled: true|false}", async () => {
      const { key } = await server.workspace();
      const created = await create(key, { url: goodUrl });
      const cases: [unknown, string][] = [
        [{}, "disabled"],
        [{ disabled: "false" }, "disabled"],
        [{ disabled: 0 }, "disabled"],
        [{ disabled: null }, "disabled"],
        [{ disabled: [true] }, "disabled"],
        [{ disabled: false, url: "https://elsewhere.example.com" }, "url"],
        [{ disabled: true, enabled: false }, "enabled"],
      ];
      for (const [body, param] of cases) {
        const answer = await server.call("PATCH", `/v1/webhooks/${created.body.id}`, { key, body });
        expectError(answer, 400, "invalid_request", param);
      }
      const listed = await server.call("GET", "/v1/webhooks", { key });
      expect(listed.body.data[0]).toMatchObject({ url: goodUrl, disabled: false });
    });

    it("removes an endpoint with DELETE: 204 and no body, then 404 for it everywhere", async () => {
      const { key } = await server.workspace();
      const kept = await create(key, { url: `${goodUrl}/kept` });
      const created = await create(key, { url: goodUrl });
      const removed = await server.call("DELETE", `/v1/webhooks/${created.body.id}`, { key });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe("");
      const listed = await server.call("GET", "/v1/webhooks", { key });
      expect(listed.body.data.map((e: any) => e.id)).toEqual([kept.body.id]);
      const id = created.body.id;
      expectError(await server.call("DELETE", `/v1/webhooks/${id}`, { key }), 404, "webhook_not_found", "id");
      expectError(
        await server.call("PATCH", `/v1/webhooks/${id}`, { key, body: { disabled: false } }),
        404,
        "webhook_not_found",
      );
      expectError(
        await server.call("GET", `/v1/webhooks/${id}/deliveries`, { key }),
        404,
        "webhook_not_found",
      );
    });

    it("answers 404 webhook_not_found for unknown ids on every endpoint-scoped route", async () => {
      const { key } = await server.workspace();
      for (const id of ["wh_doesnotexist", "wh_00000000000000000000000000", "nothing"]) {
        expectError(
          await server.call("PATCH", `/v1/webhooks/${id}`, { key, body: { disabled: true } }),
          404,
          "webhook_not_found",
          "id",
        );
        expectError(
          await server.call("DELETE", `/v1/webhooks/${id}`, { key }),
          404,
          "webhook_not_found",
          "id",
        );
        expectError(
          await server.call("GET", `/v1/webhooks/${id}/deliveries`, { key }),
          404,
          "webhook_not_found",
          "id",
        );
        expectError(
          await server.call("POST", `/v1/webhooks/${id}/deliveries/dlv_doesnotexist/resend`, { key }),
          404,
          "webhook_not_found",
          "id",
        );
      }
    });

    it("treats another workspace's endpoint and deliveries as unknown, and leaves them untouched", async () => {
      const owner = await server.workspace();
      const stranger = await server.workspace();
      const path = `/owner-${dialect.name}`;
      const endpoint = await create(owner.key, {
        url: `${receiver.origin}${path}`,
        events: ["job.completed"],
      });
      const job = await server.call("POST", "/v1", {
        key: owner.key,
        body: { videos: ["eeeeeeeeeee"], schema: { columns: ["product"] } },
      });
      expect(job.status, job.text).toBe(202);
      await receiver.waitForAt(path, 1);
      const attempts = await waitUntil(
        "the owner's attempt to be recorded",
        async () => {
          const listed = await server.call("GET", `/v1/webhooks/${endpoint.body.id}/deliveries`, {
            key: owner.key,
          });
          return listed.body.data.length === 1 ? listed.body.data : undefined;
        },
        10_000,
      );
      const deliveryId: string = attempts[0].delivery_id;
      const id = endpoint.body.id;
      const as = { key: stranger.key };
      expectError(
        await server.call("PATCH", `/v1/webhooks/${id}`, { ...as, body: { disabled: true } }),
        404,
        "webhook_not_found",
        "id",
      );
      expectError(await server.call("DELETE", `/v1/webhooks/${id}`, as), 404, "webhook_not_found", "id");
      expectError(
        await server.call("GET", `/v1/webhooks/${id}/deliveries`, as),
        404,
        "webhook_not_found",
        "id",
      );
      expectError(
        await server.call("POST", `/v1/webhooks/${id}/deliveries/${deliveryId}/resend`, as),
        404,
        "webhook_not_found",
        "id",
      );
      // The stranger's own endpoint cannot resend the owner's delivery either.
      const own = await create(stranger.key, { url: `${receiver.origin}/stranger-${dialect.name}` });
      expectError(
        await server.call("POST", `/v1/webhooks/${own.body.id}/deliveries/${deliveryId}/resend`, as),
        404,
        "delivery_not_found",
        "delivery_id",
      );
      expectError(
        await server.call("POST", `/v1/webhooks/${own.body.id}/deliveries/${attempts[0].id}/resend`, as),
        404,
        "delivery_not_found",
        "delivery_id",
      );
      // The owner's endpoint is as it was: enabled, listed, with its one attempt and nothing resent.
      const listed = await server.call("GET", "/v1/webhooks", { key: owner.key });
      expect(listed.body.data).toEqual([expect.objectContaining({ id, disabled: false })]);
      const after = await server.call("GET", `/v1/webhooks/${id}/deliveries`, { key: owner.key });
      expect(after.body.pagination.total).toBe(1);
      expect(receiver.receivedAt(path)).toHaveLength(1);
      expect(receiver.receivedAt(`/stranger-${dialect.name}`)).toHaveLength(0);
    });

    it("answers 404 delivery_not_found for an unknown delivery on the caller's own endpoint", async () => {
      const { key } = await server.workspace();
      const created = await create(key, { url: goodUrl });
      for (const deliveryId of ["dlv_doesnotexist", "att_doesnotexist", "evt_x"]) {
        expectError(
          await server.call("POST", `/v1/webhooks/${created.body.id}/deliveries/${deliveryId}/resend`, {
            key,
          }),
          404,
          "delivery_not_found",
          "delivery_id",
        );
      }
    });

    it("lists no attempts for a new endpoint, paged, and refuses out-of-range paging", async () => {
      const { key } = await server.workspace();
      const created = await create(key, { url: goodUrl });
      const path = `/v1/webhooks/${created.body.id}/deliveries`;
      const empty = await server.call("GET", path, { key });
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        data: [],
        pagination: { total: 0, limit: 25, offset: 0, has_more: false },
      });
      for (const [query, param] of [
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["limit=x", "limit"],
        ["offset=-1", "offset"],
        ["page=2", "page"],
      ]) {
        expectError(await server.call("GET", `${path}?${query}`, { key }), 400, "invalid_request", param);
      }
      expect((await server.call("GET", `${path}?limit=100&offset=5`, { key })).body.pagination).toEqual({
        total: 0,
        limit: 100,
        offset: 5,
        has_more: false,
      });
    });
  });

  describe.skipIf(dialect.skipReason !== null)(
    `webhook endpoints without private targets on ${dialectTitle(dialect)}`,
    () => {
      // The default: VIDROWS_WEBHOOK_ALLOW_PRIVATE unset.
      let strict: TestServer;
      beforeAll(async () => {
        strict = await startTestServer(dialect.name);
      });
      afterAll(async () => {
        await strict?.close();
      });

      it("refuses every http:// url, loopback and private addresses included, and takes https:// ones", async () => {
        const { key } = await strict.workspace("scale");
        for (const url of [
          "http://localhost:3000/hooks",
          "http://127.0.0.1:3000/hooks",
          "http://[::1]/hooks",
          "http://192.168.1.20/hooks",
          "http://hooks.example.com/vidrows",
        ]) {
          const answer = await strict.call("POST", "/v1/webhooks", { key, body: { url } });
          expectError(answer, 400, "invalid_request", "url");
          expect(answer.body.error.message).toBe("`url` must be an https:// URL.");
        }
        const https = await strict.call("POST", "/v1/webhooks", { key, body: { url: goodUrl } });
        expect(https.status, https.text).toBe(201);
      });
    },
  );
}
