// Webhooks end to end: settled jobs reach a real HTTPS receiver, signed, once per subscribed endpoint,
// retried on the schedule, recorded, disabled on 410 or after every attempt, resent on request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { waitUntil } from "../support/waiting.js";
import {
  type ReceivedWebhook,
  redirectTarget,
  startWebhookReceiver,
  verifiedEvent,
  type WebhookReceiver,
} from "../support/webhook-receiver.js";

const schema = { columns: ["product", "price"] };
const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
// Captions exist for these two; any other id has none, so its video fails with no_captions.
const withCaptions = ["aaaaaaaaaaa", "bbbbbbbbbbb"];
const noCaptions = ["nnnnnnnnnn1", "nnnnnnnnnn2"];

interface Endpoint {
  readonly id: string;
  readonly secret: string;
  readonly path: string;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`webhook delivery on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        // Three attempts in all: the first and two retries.
        config: { webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2, 0.2], leaseSeconds: 60 } },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
      server.addCaptions("aaaaaaaaaaa", 90);
      server.addCaptions("bbbbbbbbbbb", 30);
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    let paths = 0;
    /** An endpoint at a path of its own on the receiver, so tests never see each other's deliveries. */
    async function endpointFor(key: string, events?: string[], url?: string): Promise<Endpoint> {
      const path = `/${dialect.name}/${++paths}`;
      const created = await server.call("POST", "/v1/webhooks", {
        key,
        body: { url: url ?? `${receiver.origin}${path}`, ...(events ? { events } : {}) },
      });
      if (created.status !== 201)
        throw new Error(`POST /v1/webhooks answered ${created.status}: ${created.text}`);
      return { id: created.body.id, secret: created.body.secret, path };
    }

    async function settledJob(key: string, videos: string[]): Promise<any> {
      const submitted = await server.call("POST", "/v1", { key, body: { videos, schema } });
      if (submitted.status !== 202)
        throw new Error(`POST /v1 answered ${submitted.status}: ${submitted.text}`);
      return server.waitForSettled(key, submitted.body.job_id);
    }

    const attemptsOf = async (key: string, endpoint: Endpoint, query = "") =>
      (await server.call("GET", `/v1/webhooks/${endpoint.id}/deliveries${query}`, { key })).body;

    /** Waits (bounded) until the endpoint's deliveries list has `count` attempts, and answers them. */
    const recordedAttempts = (key: string, endpoint: Endpoint, count: number) =>
      waitUntil(
        `${count} attempts recorded for ${endpoint.path}`,
        async () => {
          const listed = await attemptsOf(key, endpoint, "?limit=100");
          return listed.data.length >= count ? (listed.data as any[]) : undefined;
        },
        15_000,
      );

    /** Waits (bounded) until no delivery to the endpoint is pending: nothing more will be sent to it. */
    const drained = (endpoint: Endpoint) =>
      waitUntil(
        `the deliveries to ${endpoint.path} to finish`,
        async () => {
          const pending = await server.app.store.db
            .selectFrom("webhook_deliveries")
            .select("id")
            .where("endpoint_id", "=", endpoint.id)
            .where("status", "=", "pending")
            .execute();
          return pending.length === 0;
        },
        15_000,
      );

    const endpointState = async (key: string, endpoint: Endpoint) => {
      const listed = await server.call("GET", "/v1/webhooks", { key });
      return listed.body.data.find((e: any) => e.id === endpoint.id);
    };

    const events = (endpoint: Endpoint, received: readonly ReceivedWebhook[]) =>
      received.map((r) => verifiedEvent(endpoint.secret, r));

    it("sends job.completed and batch.completed to every endpoint, signed with its own secret", async () => {
      const { key } = await server.workspace();
      const first = await endpointFor(key);
      const second = await endpointFor(key);
      const job = await settledJob(key, withCaptions);
      expect(job.status).toBe("done");

      for (const endpoint of [first, second]) {
        const received = await receiver.waitForAt(endpoint.path, 2);
        const other = endpoint === first ? second : first;
        for (const request of received) {
          expect(request.headers["content-type"]).toBe("application/json");
          expect(request.headers["webhook-id"]).toMatch(/^evt_[0-9a-z]{26}$/);
          expect(request.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
          expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
          // Signed with this endpoint's secret, not another's.
          expect(() => verifiedEvent(other.secret, request)).toThrow();
        }
        const verified = events(endpoint, received);
        expect(verified.map((e) => e.type).sort()).toEqual(["batch.completed", "job.completed"]);
        for (const [i, event] of verified.entries()) {
          expect(Object.keys(event).sort()).toEqual(["created_at", "data", "id", "type"]);
          expect(event.id).toBe(received[i]?.headers["webhook-id"]);
          expect(event.created_at).toMatch(timestamp);
          expect(Object.keys(event.data).sort()).toEqual([
            "completed_at",
            "counts",
            "credits_charged",
            "job_id",
            "schema",
            "status",
            "videos",
          ]);
          expect(event.data).toEqual({
            job_id: job.job_id,
            status: "done",
            videos: 2,
            schema: "inline",
            credits_charged: 3,
            counts: { queued: 0, processing: 0, done: 2, failed: 0 },
            completed_at: expect.stringMatching(timestamp),
          });
          // Rows are never sent: reading the job is the handover.
          expect(received[i]?.body).not.toContain("widget");
          expect(received[i]?.body).not.toContain("rows");
        }
      }
      // One event per type, delivered to both endpoints under the same id.
      const ids = (endpoint: Endpoint) =>
        receiver.receivedAt(endpoint.path).map((r) => r.headers["webhook-id"]);
      expect(new Set(ids(first))).toEqual(new Set(ids(second)));

      for (const endpoint of [first, second]) {
        const attempts = await recordedAttempts(key, endpoint, 2);
        expect(attempts).toHaveLength(2);
        for (const attempt of attempts) {
          expect(attempt).toMatchObject({ attempt: 1, status_code: 200, error: null });
        }
        await drained(endpoint);
        expect(receiver.receivedAt(endpoint.path)).toHaveLength(2);
      }
    });

    it("sends an endpoint only the events it subscribed to: job.failed only for a failed job", async () => {
      const { key } = await server.workspace();
      const failedOnly = await endpointFor(key, ["job.failed"]);
      const completedOnly = await endpointFor(key, ["job.completed"]);
      const everything = await endpointFor(key);
      const done = await settledJob(key, ["aaaaaaaaaaa"]);
      const failed = await settledJob(key, ["nnnnnnnnnn1"]);
      expect(done.status).toBe("done");
      expect(failed.status).toBe("failed");
      expect(failed.results[0].error.code).toBe("no_captions");

      await receiver.waitForAt(everything.path, 2);
      for (const endpoint of [failedOnly, completedOnly, everything]) {
        await recordedAttempts(key, endpoint, endpoint === everything ? 2 : 1);
        await drained(endpoint);
      }
      const toFailedOnly = events(failedOnly, receiver.receivedAt(failedOnly.path));
      expect(toFailedOnly).toHaveLength(1);
      expect(toFailedOnly[0]).toMatchObject({
        type: "job.failed",
        data: {
          job_id: failed.job_id,
          status: "failed",
          videos: 1,
          credits_charged: 0,
          counts: { queued: 0, processing: 0, done: 0, failed: 1 },
        },
      });
      const toCompletedOnly = events(completedOnly, receiver.receivedAt(completedOnly.path));
      expect(toCompletedOnly.map((e) => [e.type, e.data.job_id])).toEqual([["job.completed", done.job_id]]);
      // A job of one video has no batch.completed.
      const toEverything = events(everything, receiver.receivedAt(everything.path));
      expect(toEverything.map((e) => `${e.type} ${e.data.job_id}`).sort()).toEqual(
        [`job.completed ${done.job_id}`, `job.failed ${failed.job_id}`].sort(),
      );
    });

    it("sends batch.completed for every job of two or more videos, whatever its status", async () => {
      const { key } = await server.workspace();
      const batchOnly = await endpointFor(key, ["batch.completed"]);
      const everything = await endpointFor(key);
      const partial = await settledJob(key, ["aaaaaaaaaaa", "nnnnnnnnnn1"]);
      const failed = await settledJob(key, noCaptions);
      expect(partial.status).toBe("partial");
      expect(failed.status).toBe("failed");

      await receiver.waitForAt(everything.path, 4);
      await recordedAttempts(key, batchOnly, 2);
      await drained(batchOnly);
      await drained(everything);
      const batches = events(batchOnly, receiver.receivedAt(batchOnly.path));
      expect(batches.map((e) => `${e.type} ${e.data.job_id} ${e.data.status}`).sort()).toEqual(
        [`batch.completed ${partial.job_id} partial`, `batch.completed ${failed.job_id} failed`].sort(),
      );
      const all = events(everything, receiver.receivedAt(everything.path));
      expect(all.map((e) => `${e.type} ${e.data.job_id}`).sort()).toEqual(
        [
          `batch.completed ${partial.job_id}`,
          `job.completed ${partial.job_id}`,
          `batch.completed ${failed.job_id}`,
          `job.failed ${failed.job_id}`,
        ].sort(),
      );
      const partialEvent = all.find((e) => e.type === "job.completed");
      expect(partialEvent.data).toMatchObject({
        status: "partial",
        videos: 2,
        credits_charged: 2,
        counts: { queued: 0, processing: 0, done: 1, failed: 1 },
      });
    });

    it("sends nothing to a paused endpoint, and delivers what waited once it is re-enabled", async () => {
      const { key } = await server.workspace();
      const paused = await endpointFor(key, ["job.completed"]);
      const live = await endpointFor(key, ["job.completed"]);
      const pause = await server.call("PATCH", `/v1/webhooks/${paused.id}`, {
        key,
        body: { disabled: true },
      });
      expect(pause.status).toBe(200);
      const job = await settledJob(key, ["bbbbbbbbbbb"]);

      const toLive = await receiver.waitForAt(live.path, 1);
      await recordedAttempts(key, live, 1);
      await drained(live);
      expect(receiver.receivedAt(paused.path)).toHaveLength(0);
      expect((await attemptsOf(key, paused)).pagination.total).toBe(0);

      const resume = await server.call("PATCH", `/v1/webhooks/${paused.id}`, {
        key,
        body: { disabled: false },
      });
      expect(resume.body.disabled).toBe(false);
      const toPaused = await receiver.waitForAt(paused.path, 1);
      const event = verifiedEvent(paused.secret, toPaused[0] as ReceivedWebhook);
      expect(event).toMatchObject({ type: "job.completed", data: { job_id: job.job_id } });
      expect(toPaused[0]?.headers["webhook-id"]).toBe(toLive[0]?.headers["webhook-id"]);
      const attempts = await recordedAttempts(key, paused, 1);
      expect(attempts[0]).toMatchObject({ attempt: 1, status_code: 200 });
      await drained(paused);
      expect(receiver.receivedAt(paused.path)).toHaveLength(1);
    });

    it("retries after 500, 500 with the same webhook-id, and lists all three attempts newest first", async () => {
      const { key } = await server.workspace();
      const endpoint = await endpointFor(key, ["job.completed"]);
      receiver.answerAt(endpoint.path, [500, 500], 200);
      const job = await settledJob(key, ["aaaaaaaaaaa"]);

      const received = await receiver.waitForAt(endpoint.path, 3);
      const attempts = await recordedAttempts(key, endpoint, 3);
      await drained(endpoint);
      expect(receiver.receivedAt(endpoint.path)).toHaveLength(3);
      const eventIds = new Set(received.map((r) => r.headers["webhook-id"]));
      expect(eventIds.size).toBe(1);
      expect(new Set(received.map((r) => r.body)).size).toBe(1);
      for (const request of received) {
        expect(verifiedEvent(endpoint.secret, request).data.job_id).toBe(job.job_id);
      }
      const [eventId] = [...eventIds];

      expect(attempts).toHaveLength(3);
      expect(attempts.map((a) => a.attempt)).toEqual([3, 2, 1]);
      expect(attempts.map((a) => a.status_code)).toEqual([200, 500, 500]);
      expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
      for (const attempt of attempts) {
        expect(Object.keys(attempt).sort()).toEqual([
          "attempt",
          "created_at",
          "delivery_id",
          "duration_ms",
          "error",
          "event_id",
          "event_type",
          "id",
          "status_code",
        ]);
        expect(attempt).toMatchObject({ event_id: eventId, event_type: "job.completed", error: null });
        expect(attempt.id).toMatch(/^att_/);
        expect(attempt.delivery_id).toMatch(/^dlv_/);
        expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
        expect(attempt.created_at).toMatch(timestamp);
      }
      expect([...attempts].map((a) => a.created_at)).toEqual(
        [...attempts.map((a) => a.created_at)].sort().reverse(),
      );

      const firstPage = await attemptsOf(key, endpoint, "?limit=2");
      expect(firstPage.data.map((a: any) => a.attempt)).toEqual([3, 2]);
      expect(firstPage.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
      const secondPage = await attemptsOf(key, endpoint, "?limit=2&offset=2");
      expect(secondPage.data.map((a: any) => a.attempt)).toEqual([1]);
      expect(secondPage.pagination).toEqual({ total: 3, limit: 2, offset: 2, has_more: false });
      expect((await endpointState(key, endpoint)).disabled).toBe(false);
    });

    it("disables an endpoint at once when it answers 410 Gone", async () => {
      const { key } = await server.workspace();
      const endpoint = await endpointFor(key, ["job.completed"]);
      receiver.answerAt(endpoint.path, [410], 200);
      await settledJob(key, ["aaaaaaaaaaa"]);

      await receiver.waitForAt(endpoint.path, 1);
      const attempts = await recordedAttempts(key, endpoint, 1);
      await drained(endpoint);
      expect(attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 410 })]);
      expect(receiver.receivedAt(endpoint.path)).toHaveLength(1);
      expect((await endpointState(key, endpoint)).disabled).toBe(true);

      // A later event waits for the endpoint to be re-enabled; the one that met 410 is not retried.
      const later = await settledJob(key, ["bbbbbbbbbbb"]);
      const resume = await server.call("PATCH", `/v1/webhooks/${endpoint.id}`, {
        key,
        body: { disabled: false },
      });
      expect(resume.status).toBe(200);
      const received = await receiver.waitForAt(endpoint.path, 2);
      expect(verifiedEvent(endpoint.secret, received[1] as ReceivedWebhook).data.job_id).toBe(later.job_id);
      await drained(endpoint);
      expect(receiver.receivedAt(endpoint.path)).toHaveLength(2);
    });

    it("disables an endpoint whose event used every attempt of the schedule", async () => {
      const { key } = await server.workspace();
      const failing = await endpointFor(key, ["job.completed"]);
      receiver.answerAt(failing.path, [], 503);
      // Nothing listens on port 1: attempts fail without an answer, with an error instead of a status.
      const unreachable = await endpointFor(key, ["job.completed"], "https://127.0.0.1:1/hooks");
      await settledJob(key, ["aaaaaaaaaaa"]);

      const received = await receiver.waitForAt(failing.path, 3);
      const attempts = await recordedAttempts(key, failing, 3);
      await drained(failing);
      expect(receiver.receivedAt(failing.path)).toHaveLength(3);
      expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [3, 503],
        [2, 503],
        [1, 503],
      ]);
      expect((await endpointState(key, failing)).disabled).toBe(true);

      const unanswered = await recordedAttempts(key, unreachable, 3);
      await drained(unreachable);
      expect(unanswered.map((a) => a.attempt)).toEqual([3, 2, 1]);
      for (const attempt of unanswered) {
        expect(attempt.status_code).toBeNull();
        expect(attempt.error).toEqual(expect.any(String));
        expect(attempt.error.length).toBeGreaterThan(0);
      }
      expect((await attemptsOf(key, unreachable)).pagination.total).toBe(3);
      expect((await endpointState(key, unreachable)).disabled).toBe(true);
    });

    it("resends an event on request, with the same webhook-id, by delivery or attempt id", async () => {
      const { key } = await server.workspace();
      const endpoint = await endpointFor(key, ["job.completed"]);
      await settledJob(key, ["aaaaaaaaaaa"]);
      const [original] = await receiver.waitForAt(endpoint.path, 1);
      const [attempt] = await recordedAttempts(key, endpoint, 1);
      await drained(endpoint);

      const resent = await server.call(
        "POST",
        `/v1/webhooks/${endpoint.id}/deliveries/${attempt.delivery_id}/resend`,
        { key },
      );
      expect(resent.status, resent.text).toBe(202);
      expect(Object.keys(resent.body).sort()).toEqual(["delivery_id", "event_id"]);
      expect(resent.body.event_id).toBe(attempt.event_id);
      expect(resent.body.delivery_id).toMatch(/^dlv_/);
      expect(resent.body.delivery_id).not.toBe(attempt.delivery_id);
      const again = await receiver.waitForAt(endpoint.path, 2);
      expect(again[1]?.headers["webhook-id"]).toBe(original?.headers["webhook-id"]);
      expect(again[1]?.body).toBe(original?.body);
      expect(verifiedEvent(endpoint.secret, again[1] as ReceivedWebhook).id).toBe(attempt.event_id);

      const byAttempt = await server.call(
        "POST",
        `/v1/webhooks/${endpoint.id}/deliveries/${attempt.id}/resend`,
        { key },
      );
      expect(byAttempt.status).toBe(202);
      expect(byAttempt.body.event_id).toBe(attempt.event_id);
      await receiver.waitForAt(endpoint.path, 3);
      const attempts = await recordedAttempts(key, endpoint, 3);
      await drained(endpoint);
      expect(receiver.receivedAt(endpoint.path)).toHaveLength(3);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 1, 1]);
      expect(new Set(attempts.map((a) => a.delivery_id))).toEqual(
        new Set([attempt.delivery_id, resent.body.delivery_id, byAttempt.body.delivery_id]),
      );
    });

    it("does not follow redirects: a 3xx is a failed attempt, retried", async () => {
      const { key } = await server.workspace();
      const endpoint = await endpointFor(key, ["job.completed"]);
      receiver.answerAt(endpoint.path, [302, 307], 200);
      await settledJob(key, ["aaaaaaaaaaa"]);

      await receiver.waitForAt(endpoint.path, 3);
      const attempts = await recordedAttempts(key, endpoint, 3);
      await drained(endpoint);
      expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [3, 200],
        [2, 307],
        [1, 302],
      ]);
      expect(receiver.receivedAt(endpoint.path)).toHaveLength(3);
      expect(receiver.receivedAt(redirectTarget)).toHaveLength(0);
    });
  });
}
