// The webhook dispatcher: delivers due events, signed, retrying on the schedule; any number run at once.
import { webhookDeliveries } from "../metrics.js";
import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type Backoff, backoffDelay } from "../concurrency/backoff.js";
import { ClaimLoop } from "../concurrency/claim-loop.js";
import { sleep } from "../concurrency/sleep.js";
import { logBackgroundFailure } from "../logger.js";
import { defaultDeliveryConcurrency } from "./delivery-concurrency.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import type { Store } from "../store/database.js";
import {
  type ClaimedDelivery,
  claimDeliveries,
  judgeAttempt,
  recordAttempt,
  releaseDeliveries,
} from "./delivery-queue.js";
import { signatureHeaders } from "./signing.js";
import type { WebhookSender } from "./webhook-sender.js";

export interface DispatcherOptions {
  readonly store: Store;
  readonly sender: WebhookSender;
  /** Seconds to wait after each failed attempt; its length is the number of retries. */
  readonly retryScheduleSeconds: readonly number[];
  readonly log: FastifyBaseLogger;
  readonly pollIntervalMs?: number;
  /** Deliveries in flight at once. */
  readonly concurrency?: number;
  /**
   * How long a claim on a delivery lasts (VIDROWS_WEBHOOK_LEASE_SECONDS; 60 s without it): longer than
   * a delivery's 10-second limit, so a live dispatcher never loses its claim mid-attempt, and the wait
   * before another dispatcher re-sends a delivery whose process died.
   */
  readonly leaseMs?: number;
}

const defaultLeaseMs = 60_000;
const outcomeBackoff: Backoff = { firstMs: 250, maxMs: 2000 };

export class WebhookDispatcher {
  readonly id = `dsp_${randomBytes(8).toString("hex")}`;
  private readonly loop: ClaimLoop<ClaimedDelivery>;

  constructor(private readonly options: DispatcherOptions) {
    this.loop = new ClaimLoop<ClaimedDelivery>({
      capacity: options.concurrency ?? defaultDeliveryConcurrency,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      claim: (room) => claimDeliveries(options.store, this.id, room, options.leaseMs ?? defaultLeaseMs),
      keyOf: (delivery) => delivery.deliveryId,
      handle: (delivery) => this.deliver(delivery),
      release: (ids) => releaseDeliveries(options.store, this.id, ids),
      onError: (error, context) =>
        logBackgroundFailure(options.log, error, { context }, "webhook dispatch failed"),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** A job settled on this process: look for deliveries now. */
  wake(): void {
    this.loop.wake();
  }

  async stop(graceMs = 10_000): Promise<void> {
    await this.loop.stop(graceMs);
    await this.options.sender.close();
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const claimedAt = Date.now();
    const headers = signatureHeaders(delivery.secret, delivery.eventId, delivery.body);
    const result = await this.options.sender.send(delivery.url, headers, delivery.body);
    const attempt = delivery.attemptsBefore + 1;
    const verdict = judgeAttempt(result, attempt, this.options.retryScheduleSeconds);
    webhookDeliveries.inc({ outcome: verdict.kind });
    if (verdict.kind === "give_up") {
      this.options.log.warn(
        { endpoint: delivery.endpointId, event: delivery.eventId, reason: verdict.reason },
        "webhook endpoint disabled",
      );
    }
    await this.recordWhileClaimed(claimedAt, () =>
      recordAttempt(this.options.store, this.id, delivery, result, verdict),
    );
  }

  /**
   * The receiver has had the event; an outcome that cannot be written now (the database down, its
   * disk full) is tried again until it can, for as long as the claim holds. Given up early, the claim
   * would run out and the event be sent a second time.
   */
  private async recordWhileClaimed(claimedAt: number, record: () => Promise<void>): Promise<void> {
    // Stop trying a few seconds before the claim runs out, so the write cannot land after another
    // dispatcher has taken the delivery over.
    const deadline = claimedAt + (this.options.leaseMs ?? defaultLeaseMs) - 5000;
    for (let failures = 1; ; failures++) {
      try {
        return await record();
      } catch (error) {
        const wait = backoffDelay(failures, outcomeBackoff);
        if (!isDatabaseUnavailable(error) || Date.now() + wait > deadline) throw error;
        await sleep(wait);
      }
    }
  }
}
