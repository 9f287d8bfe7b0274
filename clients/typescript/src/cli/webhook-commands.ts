// `webhooks list|create|delete|enable|disable|attempts|resend`.
import type { WebhookEventType } from "../api-types.js";
import { type Command, integerOption, listOption, stringOption } from "./command.js";
import { exitCodes, UsageError } from "./exit-codes.js";

const eventTypes: readonly string[] = ["job.completed", "job.failed", "batch.completed"];

function switchCommand(name: "enable" | "disable"): Command {
  const disabled = name === "disable";
  return {
    name: `webhooks ${name}`,
    usage: "<webhook_id>",
    summary: disabled
      ? "Pause an endpoint: its deliveries wait until it is enabled again."
      : "Re-enable an endpoint (also one disabled after exhausting its retries).",
    options: {},
    optionHelp: [],
    examples: [`webhooks ${name} wh_01...`],
    positionals: { min: 1, max: 1 },
    async run(context) {
      context.print(await context.client().webhooks.update(context.positionals[0] as string, { disabled }));
      return exitCodes.ok;
    },
  };
}

export const webhookCommands: readonly Command[] = [
  {
    name: "webhooks list",
    usage: "",
    summary: "List webhook endpoints (secrets are never listed).",
    options: {},
    optionHelp: [],
    examples: ["webhooks list"],
    positionals: { min: 0, max: 0 },
    async run(context) {
      context.print(await context.client().webhooks.list());
      return exitCodes.ok;
    },
  },
  {
    name: "webhooks create",
    usage: "--url https://... [--events job.completed,job.failed,batch.completed]",
    summary: "Create an endpoint; its signing secret is printed this once.",
    options: { url: { type: "string" }, events: { type: "string" } },
    optionHelp: [
      "--url URL         an https:// address",
      "--events LIST     some of job.completed, job.failed, batch.completed (default: all)",
    ],
    examples: ["webhooks create --url https://example.com/vidrows --events job.completed"],
    positionals: { min: 0, max: 0 },
    async run(context) {
      const url = stringOption(context, "url");
      if (url === undefined) throw new UsageError("--url is required.");
      const events = listOption(context, "events");
      const unknown = events?.find((event) => !eventTypes.includes(event));
      if (unknown !== undefined)
        throw new UsageError(`--events: "${unknown}" is not one of ${eventTypes.join(", ")}.`);
      const body = { url, ...(events === undefined ? {} : { events: events as WebhookEventType[] }) };
      context.print(await context.client().webhooks.create(body));
      return exitCodes.ok;
    },
  },
  {
    name: "webhooks delete",
    usage: "<webhook_id>",
    summary: "Remove an endpoint.",
    options: {},
    optionHelp: [],
    examples: ["webhooks delete wh_01..."],
    positionals: { min: 1, max: 1 },
    async run(context) {
      const id = context.positionals[0] as string;
      await context.client().webhooks.delete(id);
      context.print({ id, deleted: true });
      return exitCodes.ok;
    },
  },
  switchCommand("enable"),
  switchCommand("disable"),
  {
    name: "webhooks attempts",
    usage: "<webhook_id> [--limit N] [--offset N]",
    summary: "List the delivery attempts made to an endpoint, newest first.",
    options: { limit: { type: "string" }, offset: { type: "string" } },
    optionHelp: ["--limit N         1 to 100 (default 25)", "--offset N"],
    examples: ["webhooks attempts wh_01... --limit 5"],
    positionals: { min: 1, max: 1 },
    async run(context) {
      const query = {
        limit: integerOption(context, "limit", 1, 100),
        offset: integerOption(context, "offset", 0, Number.MAX_SAFE_INTEGER),
      };
      context.print(await context.client().webhooks.attempts(context.positionals[0] as string, query));
      return exitCodes.ok;
    },
  },
  {
    name: "webhooks resend",
    usage: "<webhook_id> <delivery_id>",
    summary: "Send a delivery's event to the endpoint again (same webhook-id).",
    options: {},
    optionHelp: [],
    examples: ["webhooks resend wh_01... dlv_01..."],
    positionals: { min: 2, max: 2 },
    async run(context) {
      const [id, delivery] = context.positionals as [string, string];
      context.print(await context.client().webhooks.resend(id, delivery));
      return exitCodes.ok;
    },
  },
];
