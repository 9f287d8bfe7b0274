// Webhook deliveries: private targets, the retry schedule, the dispatcher's lease (VIDROWS_WEBHOOK_*).
import { ConfigError, integerSetting, switchSetting } from "./setting-values.js";

export interface WebhookSettings {
  /** VIDROWS_WEBHOOK_ALLOW_PRIVATE=1: deliveries may reach private and loopback addresses. */
  readonly allowPrivate: boolean;
  /** Seconds between delivery attempts; its length is the number of retries after the first attempt. */
  readonly retryScheduleSeconds: readonly number[];
  /**
   * VIDROWS_WEBHOOK_LEASE_SECONDS: how long a dispatcher holds a delivery it is attempting. A delivery
   * whose process died is sent again once this runs out; it must outlast one attempt (10 s).
   */
  readonly leaseSeconds: number;
}

const defaultRetrySchedule = [5, 300, 1800, 7200, 18000, 36000, 36000];

function retrySchedule(raw: string | undefined): readonly number[] {
  if (raw === undefined || raw.trim() === "") return Object.freeze([...defaultRetrySchedule]);
  const parts = raw.split(",").map((p) => p.trim());
  if (!parts.every((p) => /^\d+(\.\d+)?$/.test(p)) || parts.length > 50) {
    throw new ConfigError(
      `VIDROWS_WEBHOOK_RETRY_SCHEDULE must be up to 50 comma-separated numbers of seconds, such as "5,300,1800"; got "${raw}".`,
    );
  }
  return Object.freeze(parts.map(Number));
}

export function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  return Object.freeze({
    allowPrivate: switchSetting(env, "VIDROWS_WEBHOOK_ALLOW_PRIVATE", false),
    retryScheduleSeconds: retrySchedule(env.VIDROWS_WEBHOOK_RETRY_SCHEDULE),
    leaseSeconds: integerSetting(env, "VIDROWS_WEBHOOK_LEASE_SECONDS", 60, 15, 86_400),
  });
}
