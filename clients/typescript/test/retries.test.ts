// Retries, time-outs and error mapping against a scripted local HTTP server: what is retried, how often,
// after how long, and what never is (an unrepeatable request after the server may have acted).
import { afterEach, describe, expect, it } from "vitest";
import { VidrowsError } from "../src/index.js";
import { clientFor, failure } from "./client-support.js";
import {
  errorAnswer,
  type ScriptedAnswer,
  type ScriptedServer,
  startScriptedServer,
} from "./scripted-server.js";

const usage = { credits: {}, plan: { id: "pro" } };
const settledJob = {
  job_id: "job_1",
  status: "done",
  videos: 0,
  credits_charged: 0,
  counts: {},
  results: [],
};

describe("retries", () => {
  let scripted: ScriptedServer | undefined;
  afterEach(() => scripted?.close());
  const serve = async (script: ScriptedAnswer[], options = {}) => {
    scripted = await startScriptedServer(script);
    return clientFor(scripted.url, "vr_test_key", options);
  };
  const arrived = () => scripted?.requests ?? [];

  it("retries a 503 and answers the 200 that follows", async () => {
    const vr = await serve([errorAnswer(503, "unavailable"), { status: 200, body: usage }]);
    expect(await vr.usage.get()).toEqual(usage);
    expect(arrived()).toHaveLength(2);
    expect(arrived()[0]?.headers.authorization).toBe("Bearer vr_test_key");
  });

  it("waits as long as a 429's Retry-After says before trying again", async () => {
    const vr = await serve([
      errorAnswer(429, "rate_limited", { "retry-after": "1" }),
      { status: 200, body: usage },
    ]);
    expect(await vr.usage.get()).toEqual(usage);
    const [first, second] = arrived();
    // The backoff alone would wait about 20 ms: the gap shows the header was honoured.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it("retries 500, 502 (even without the API's body) and connection failures, up to maxRetries", async () => {
    const vr = await serve([
      errorAnswer(500, "internal_error"),
      "hang up",
      { status: 502, body: "<html>bad gateway</html>" },
    ]);
    const error = await failure(vr.usage.get());
    expect(error).toMatchObject({ code: "invalid_response", status: 502 });
    expect(arrived()).toHaveLength(3);
  });

  it("stops at maxRetries and reports the last error with its rate-limit headers", async () => {
    const limited = errorAnswer(429, "rate_limited", {
      "retry-after": "0",
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "0",
    });
    const vr = await serve([limited, limited, limited], { maxRetries: 1 });
    const error = await failure(vr.keys.list());
    expect(error).toMatchObject({
      code: "rate_limited",
      status: 429,
      requestId: "req_scripted",
      retryAfterSeconds: 0,
    });
    expect(error.rateLimit).toEqual({ limit: 60, remaining: 0, resetSeconds: 0 });
    expect(arrived()).toHaveLength(2);
  });

  it("hands a Retry-After beyond a minute to the caller instead of sleeping through it", async () => {
    const vr = await serve([errorAnswer(429, "rate_limited", { "retry-after": "3600" })]);
    expect(await failure(vr.usage.get())).toMatchObject({ code: "rate_limited", retryAfterSeconds: 3600 });
    expect(arrived()).toHaveLength(1);
  });

  it("never retries a client error or extraction_unavailable", async () => {
    const vr = await serve([errorAnswer(400, "invalid_request"), errorAnswer(503, "extraction_unavailable")]);
    expect((await failure(vr.usage.get())).code).toBe("invalid_request");
    expect((await failure(vr.jobs.submit({ videos: ["x"], schema: { columns: ["a"] } }))).code).toBe(
      "extraction_unavailable",
    );
    expect(arrived()).toHaveLength(2);
  });

  it("resends a submission after a lost answer with the same Idempotency-Key", async () => {
    const created = {
      job_id: "job_1",
      status: "processing",
      videos: 1,
      schema: "inline",
      counts: {},
      created_at: "",
    };
    const vr = await serve(["hang up", { status: 202, body: created }]);
    expect((await vr.jobs.submit({ videos: ["x"], schema: { columns: ["a"] } })).job_id).toBe("job_1");
    const [first, second] = arrived();
    expect(first?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"]);
    expect(second?.body).toBe(first?.body);
  });

  describe("of an unrepeatable request (taking rows, creating)", () => {
    it("retries 429 and 503 unavailable, which the server answers before acting", async () => {
      const vr = await serve([
        errorAnswer(429, "rate_limited", { "retry-after": "0" }),
        errorAnswer(503, "unavailable"),
        { status: 200, body: settledJob },
      ]);
      expect(await vr.jobs.takeRows("job_1")).toEqual(settledJob);
      expect(arrived().map((r) => r.url)).toEqual(["/v1/job_1", "/v1/job_1", "/v1/job_1"]);
    });

    it("does not retry once the request may have been acted on: lost answer, 500, 502, time-out", async () => {
      for (const answer of [
        "hang up",
        errorAnswer(500, "internal_error"),
        { status: 502, body: "" },
      ] as const) {
        const vr = await serve([answer, answer]);
        await failure(vr.jobs.takeRows("job_1"));
        await failure(vr.keys.create({ label: "x" }));
        expect(arrived()).toHaveLength(2);
        await scripted?.close();
      }
      const vr = await serve(["stall", "stall"], { timeoutMs: 100 });
      expect(await failure(vr.jobs.takeRows("job_1"))).toMatchObject({ code: "timeout", status: null });
      await failure(vr.schemas.create({ name: "a", schema: { columns: ["a"] } }));
      expect(arrived()).toHaveLength(2);
    });

    it("retries a connection refused before anything was sent", async () => {
      scripted = await startScriptedServer([]);
      const url = scripted.url;
      await scripted.close();
      let attempts = 0;
      const counting: typeof fetch = (input, init) => {
        attempts++;
        return fetch(input, init);
      };
      const vr = clientFor(url, "vr_test_key", { maxRetries: 1, fetch: counting });
      const error = await failure(vr.jobs.takeRows("job_1"));
      expect(attempts).toBe(2);
      expect(error).toMatchObject({ code: "network_error", status: null });
      expect(error.message).toContain("ECONNREFUSED");
    });
  });

  it("counts a delete as done when its retry finds the endpoint already gone", async () => {
    const vr = await serve(["hang up", errorAnswer(404, "webhook_not_found")]);
    await expect(vr.webhooks.delete("wh_1")).resolves.toBeUndefined();
    expect(arrived().map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
  });

  it("times out an attempt that gets no answer, retrying a read", async () => {
    const vr = await serve(["stall", "stall"], { timeoutMs: 100, maxRetries: 1 });
    expect(await failure(vr.usage.get())).toMatchObject({ code: "timeout" });
    expect(arrived()).toHaveLength(2);
  });

  it("stops at once when the caller aborts, with code aborted", async () => {
    const vr = await serve(["stall"]);
    const controller = new AbortController();
    const pending = failure(vr.usage.get({ signal: controller.signal }));
    while (arrived().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await pending).code).toBe("aborted");
  });

  it("reports a 2xx that is not JSON as invalid_response", async () => {
    const vr = await serve([{ status: 200, body: "<html>" }]);
    const error = await failure(vr.usage.get());
    expect(error).toBeInstanceOf(VidrowsError);
    expect(error).toMatchObject({ code: "invalid_response", status: 200 });
  });
});
