// Authentication on every endpoint, request ids on every response, and the per-minute limits for keys and addresses.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlanTable } from "../../src/domain/plans.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, endpoints, endpointTitle, livePath, placeholderPath } from "../support/endpoints.js";
import { type ApiResponse, startTestServer, type TestServer, testPlans } from "../support/test-server.js";

function expectErrorEnvelope(answer: ApiResponse, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(answer.body)).toEqual(["error"]);
  expect(answer.body.error.code).toBe(code);
  expect(typeof answer.body.error.message).toBe("string");
  expect(answer.body.error.message.length).toBeGreaterThan(10);
  expect(answer.body.error.request_id).toBe(answer.headers.get("x-request-id"));
}

/** A GET sent from a chosen loopback address, so that a test can be a client of its own. */
function callFrom(
  localAddress: string,
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(baseUrl + path, { method: "GET", headers, localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === "string") responseHeaders.set(name, value);
        }
        resolve({ status: response.statusCode ?? 0, headers: responseHeaders, body: JSON.parse(text), text });
      });
    });
    request.setTimeout(10_000, () => request.destroy(new Error("no answer within 10 s")));
    request.on("error", reject);
    request.end();
  });
}

const unknownWellFormedKey = `vr_live_${"aB3".repeat(10)}Zz`;
const malformedKeys: [string, Record<string, string>][] = [
  ["a bearer value that is not a key", { authorization: "Bearer not-a-key" }],
  ["a key one character short", { authorization: `Bearer vr_live_${"a".repeat(31)}` }],
  ["a key with an unknown prefix", { authorization: `Bearer vr_prod_${"a".repeat(32)}` }],
  ["a key with a character outside base62", { "x-api-key": `vr_live_${"a".repeat(31)}-` }],
  ["a Basic authorization", { authorization: "Basic dXNlcjpwYXNz" }],
  ["an empty bearer", { authorization: "Bearer " }],
];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Authentication on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    let revokedKey: string;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
      const { key } = await server.workspace();
      const second = await server.call("POST", "/v1/keys", { key });
      const revoked = await server.call("DELETE", `/v1/keys/${second.body.id}`, { key });
      if (revoked.status !== 204) throw new Error(`could not revoke: ${revoked.text}`);
      revokedKey = second.body.key;
    });
    afterAll(async () => {
      await server?.close();
    });

    for (const endpoint of endpoints) {
      describe(endpointTitle(endpoint), () => {
        const send = (headers: Record<string, string>) =>
          server.call(endpoint.method, placeholderPath(endpoint), {
            headers,
            body: endpoint.exampleBody?.(),
          });

        it("answers 401 unauthorized without a key", async () => {
          const answer = await send({});
          expectErrorEnvelope(answer, 401, "unauthorized");
          expect(answer.body.error.message).toMatch(/Authorization: Bearer/);
        });

        it("answers 401 unauthorized to malformed keys", async () => {
          for (const [title, headers] of malformedKeys) {
            const answer = await send(headers);
            expect(answer.status, title).toBe(401);
            expectErrorEnvelope(answer, 401, "unauthorized");
          }
        });

        it("answers 401 unauthorized to an unknown well-formed key, by either header", async () => {
          expectErrorEnvelope(
            await send({ authorization: `Bearer ${unknownWellFormedKey}` }),
            401,
            "unauthorized",
          );
          expectErrorEnvelope(await send({ "x-api-key": unknownWellFormedKey }), 401, "unauthorized");
        });

        it("answers 401 unauthorized to a revoked key, by either header", async () => {
          expectErrorEnvelope(await send({ authorization: `Bearer ${revokedKey}` }), 401, "unauthorized");
          expectErrorEnvelope(await send({ "x-api-key": revokedKey }), 401, "unauthorized");
        });

        it("serves a live key sent as Authorization: Bearer, with the RateLimit headers", async () => {
          const { key } = await server.workspace();
          const path = await livePath(server, key, endpoint);
          const answer = await server.call(endpoint.method, path, {
            headers: { authorization: `Bearer ${key}` },
            body: endpoint.exampleBody?.(),
          });
          expect(answer.status, answer.text).toBe(endpoint.successStatus);
          expect(Number(answer.headers.get("ratelimit-limit"))).toBe(testPlans.pro.requests_per_minute);
          expect(answer.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
          expect(Number(answer.headers.get("ratelimit-remaining"))).toBeLessThan(
            testPlans.pro.requests_per_minute,
          );
          expect(Number(answer.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
          expect(Number(answer.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
          expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
        });

        it("serves a live key sent as x-api-key", async () => {
          const { key } = await server.workspace();
          const path = await livePath(server, key, endpoint);
          const answer = await server.call(endpoint.method, path, {
            headers: { "x-api-key": key },
            body: endpoint.exampleBody?.(),
          });
          expect(answer.status, answer.text).toBe(endpoint.successStatus);
          expect(answer.headers.get("ratelimit-limit")).not.toBeNull();
        });

        it("serves a vr_test_ key the same way", async () => {
          const { key } = await server.workspace();
          const created = await server.call("POST", "/v1/keys", { key, body: { environment: "test" } });
          const testKey: string = created.body.key;
          expect(testKey).toMatch(/^vr_test_[0-9A-Za-z]{32}$/);
          const path = await livePath(server, testKey, endpoint);
          const answer = await server.call(endpoint.method, path, {
            key: testKey,
            body: endpoint.exampleBody?.(),
          });
          expect(answer.status, answer.text).toBe(endpoint.successStatus);
          expect(answer.headers.get("ratelimit-limit")).not.toBeNull();
        });
      });
    }

    it("accepts the bearer scheme in any case", async () => {
      const { key } = await server.workspace();
      const answer = await server.call("GET", "/v1/usage", { headers: { authorization: `bearer ${key}` } });
      expect(answer.status).toBe(200);
    });

    describe("request ids", () => {
      it("gives every response, error or not, a req_ id that its error body repeats", async () => {
        const { key } = await server.workspace();
        const answers = [
          await server.call("GET", "/v1/usage", { key }),
          await server.call("GET", "/v1/usage"),
          await server.call("GET", "/v1/nothing-here", { key }),
          await server.call("GET", "/v1/openapi.json"),
        ];
        const ids = answers.map((a) => a.headers.get("x-request-id"));
        for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]+$/);
        expect(new Set(ids).size).toBe(ids.length);
        expect(answers[1]?.body.error.request_id).toBe(ids[1]);
        expect(answers[2]?.body.error.request_id).toBe(ids[2]);
      });

      it("echoes a sane client-sent x-request-id, also in the error body", async () => {
        const { key } = await server.workspace();
        for (const sent of ["trace-123", "a1B2.c3:d4_e5-f6", "x".repeat(128)]) {
          const ok = await server.call("GET", "/v1/usage", { key, headers: { "x-request-id": sent } });
          expect(ok.headers.get("x-request-id")).toBe(sent);
          const refused = await server.call("GET", "/v1/usage", { headers: { "x-request-id": sent } });
          expect(refused.headers.get("x-request-id")).toBe(sent);
          expect(refused.body.error.request_id).toBe(sent);
        }
      });

      it("replaces an insane x-request-id with a req_ id of its own", async () => {
        const { key } = await server.workspace();
        const insane = ["x".repeat(129), "has spaces in it", "tab\there", "", "<script>", "ünïcode"];
        for (const sent of insane) {
          const answer = await server.call("GET", "/v1/usage", { key, headers: { "x-request-id": sent } });
          expect(answer.status, JSON.stringify(sent)).toBe(200);
          expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z]+$/);
        }
      });
    });

    describe("rate limits", () => {
      it("limits a workspace to its plan's requests per minute, leaving other workspaces alone", async () => {
        const limited = await startTestServer(dialect.name, {
          plans: parsePlanTable(
            { ...testPlans, tiny: { ...testPlans.free, name: "Tiny", requests_per_minute: 5 } },
            "test plans",
          ),
        });
        try {
          // A fixed window may turn over mid-sequence; then the sequence is run again, at most twice.
          let sequence: ApiResponse[] = [];
          let otherAnswer: ApiResponse | undefined;
          for (let attempt = 0; attempt < 3; attempt++) {
            const mine = await limited.workspace("tiny");
            const other = await limited.workspace("tiny");
            sequence = [];
            // Every endpoint counts against the one budget; reads keep the sequence free of side effects.
            for (const path of [
              "/v1/keys",
              "/v1/schemas",
              "/v1/usage",
              "/v1/keys",
              "/v1/schemas",
              "/v1/usage",
            ]) {
              sequence.push(await limited.call("GET", path, { key: mine.key }));
            }
            otherAnswer = await limited.call("GET", "/v1/usage", { key: other.key });
            const remaining = sequence.slice(0, 5).map((a) => a.headers.get("ratelimit-remaining"));
            if (remaining.join(",") === "4,3,2,1,0") break;
          }
          expect(sequence.slice(0, 5).map((a) => a.headers.get("ratelimit-remaining"))).toEqual([
            "4",
            "3",
            "2",
            "1",
            "0",
          ]);
          for (const answer of sequence.slice(0, 5)) expect(answer.status).not.toBe(429);
          const refused = sequence[5] as ApiResponse;
          expectErrorEnvelope(refused, 429, "rate_limited");
          expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
          expect(refused.headers.get("ratelimit-limit")).toBe("5");
          expect(refused.headers.get("ratelimit-remaining")).toBe("0");
          expect(otherAnswer?.status).toBe(200);
          expect(otherAnswer?.headers.get("ratelimit-remaining")).toBe("4");
        } finally {
          await limited.close();
        }
      });

      it("announces the workspace's remaining budget, not the process's block of it", async () => {
        const limited = await startTestServer(dialect.name, {
          plans: parsePlanTable(
            { ...testPlans, busy: { ...testPlans.free, name: "Busy", requests_per_minute: 600 } },
            "test plans",
          ),
        });
        try {
          // Blocks of 6 hits: 8 requests cross a block's end. A window turning over mid-sequence restarts it.
          const expected = ["599", "598", "597", "596", "595", "594", "593", "592"];
          let remaining: (string | null)[] = [];
          for (let attempt = 0; attempt < 3; attempt++) {
            const { key } = await limited.workspace("busy");
            remaining = [];
            for (let i = 0; i < 8; i++) {
              const answer = await limited.call("GET", "/v1/usage", { key });
              remaining.push(answer.headers.get("ratelimit-remaining"));
            }
            if (remaining.join() === expected.join()) break;
          }
          expect(remaining).toEqual(expected);
        } finally {
          await limited.close();
        }
      });

      it("limits requests without a usable key per client address", async () => {
        const limited = await startTestServer(dialect.name, { anonymousRequestsPerMinute: 3 });
        try {
          // Each attempt comes from a loopback address of its own, so a window that turns over
          // mid-sequence is retried from a clean slate (at most three times).
          let answers: ApiResponse[] = [];
          let address = "";
          for (let attempt = 0; attempt < 3; attempt++) {
            address = `127.0.${attempt + 1}.2`;
            answers = [];
            // Missing, malformed and unknown keys all count against the address.
            answers.push(await callFrom(address, limited.url, "/v1/keys", {}));
            answers.push(await callFrom(address, limited.url, "/v1/usage", { authorization: "Bearer nope" }));
            answers.push(
              await callFrom(address, limited.url, "/v1/schemas", { "x-api-key": unknownWellFormedKey }),
            );
            answers.push(await callFrom(address, limited.url, "/v1/keys", {}));
            const remaining = answers.slice(0, 3).map((a) => a.headers.get("ratelimit-remaining"));
            if (remaining.join(",") === "2,1,0") break;
          }
          expect(answers.slice(0, 3).map((a) => a.headers.get("ratelimit-remaining"))).toEqual([
            "2",
            "1",
            "0",
          ]);
          for (const answer of answers.slice(0, 3)) expectErrorEnvelope(answer, 401, "unauthorized");
          const refused = answers[3] as ApiResponse;
          expectErrorEnvelope(refused, 429, "rate_limited");
          expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
          expect(refused.headers.get("ratelimit-limit")).toBe("3");

          // Another address is not affected.
          const elsewhere = await callFrom("127.0.9.9", limited.url, "/v1/keys", {});
          expectErrorEnvelope(elsewhere, 401, "unauthorized");

          // A real key from the refused address counts against its workspace, not the address.
          const { key } = await limited.workspace();
          const served = await callFrom(address, limited.url, "/v1/usage", {
            authorization: `Bearer ${key}`,
          });
          expect(served.status, served.text).toBe(200);
          expect(served.headers.get("ratelimit-limit")).toBe(String(testPlans.pro.requests_per_minute));
        } finally {
          await limited.close();
        }
      });
    });
  });
}
