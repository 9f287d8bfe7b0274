// A delivery whose dispatcher died mid-attempt is re-sent when its lease runs out, and the lost attempt is listed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  claimDeliveries,
  lostAttemptError,
  recordAttempt,
  releaseDeliveries,
} from "../../src/webhooks/delivery-queue.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, endpoints, livePath } from "../support/endpoints.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const leaseMs = 5_000;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Lost webhook attempts on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
    });
    afterAll(async () => {
      await server?.close();
    });

    /** A pending delivery to a fresh endpoint of a fresh workspace: its key, endpoint id and delivery id. */
    async function pendingDelivery() {
      const { key } = await server.workspace("pro");
      const resend = endpoints.find((e) => e.idOf === "delivery");
      if (!resend) throw new Error("no resend endpoint");
      const [, , , endpointId, , deliveryId] = (await livePath(server, key, resend)).split("/");
      return { key, endpointId: endpointId as string, deliveryId: deliveryId as string };
    }

    const claimOne = async (owner: string, deliveryId: string, now: number) =>
      (await claimDeliveries(server.app.store, owner, 100, leaseMs, now)).find(
        (d) => d.deliveryId === deliveryId,
      );

    it("holds a claimed delivery for the lease, then records the dead owner's attempt as lost", async () => {
      const { key, endpointId, deliveryId } = await pendingDelivery();
      const t = Date.now() + 1000;
      const first = await claimOne("dsp_dies", deliveryId, t);
      expect(first?.attemptsBefore).toBe(0);
      // Within the lease nobody else takes it.
      expect(await claimOne("dsp_other", deliveryId, t + leaseMs - 1)).toBeUndefined();
      // Past it, the next dispatcher does, and counts the lost attempt.
      const second = await claimOne("dsp_other", deliveryId, t + leaseMs + 1);
      expect(second?.attemptsBefore).toBe(1);
      if (!second) throw new Error("not claimed");
      await recordAttempt(
        server.app.store,
        "dsp_other",
        second,
        { statusCode: 200, error: null, durationMs: 7 },
        { kind: "delivered" },
        t + leaseMs + 2,
      );
      const listed = await server.call("GET", `/v1/webhooks/${endpointId}/deliveries?limit=100`, { key });
      expect(listed.status, listed.text).toBe(200);
      const attempts = (listed.body.data as { delivery_id: string }[]).filter(
        (a) => a.delivery_id === deliveryId,
      );
      expect(attempts).toMatchObject([
        { attempt: 2, status_code: 200, error: null },
        { attempt: 1, status_code: null, error: lostAttemptError, duration_ms: 0 },
      ]);
    });

    it("records no lost attempt for a delivery handed back on a graceful stop", async () => {
      const { deliveryId } = await pendingDelivery();
      const t = Date.now() + 1000;
      expect((await claimOne("dsp_stops", deliveryId, t))?.attemptsBefore).toBe(0);
      await releaseDeliveries(server.app.store, "dsp_stops", [deliveryId]);
      expect((await claimOne("dsp_other", deliveryId, t + 1))?.attemptsBefore).toBe(0);
      const recorded = await server.app.store.db
        .selectFrom("webhook_attempts")
        .select("id")
        .where("delivery_id", "=", deliveryId)
        .execute();
      expect(recorded).toEqual([]);
    });
  });
}
