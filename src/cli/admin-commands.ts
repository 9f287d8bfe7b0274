// The administration commands, run directly on the database in DATABASE_URL: migrations, workspaces, credits.
import { formatTimestamp } from "../domain/timestamps.js";
import { type Command, jsonOption, printResult, UsageError } from "./command.js";
import { withApp } from "./run-app.js";
import { formatTable } from "./table.js";

const maxNameLength = 100;

function positiveCredits(raw: string | undefined): number {
  const credits = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(credits) || credits < 1) {
    throw new UsageError(`credits must be a whole number of at least 1; got "${raw ?? ""}".`);
  }
  return credits;
}

/** A string option's value, trimmed; `undefined` when not given. */
function text(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value.trim() : undefined;
}

const migrate: Command = {
  words: ["migrate"],
  synopsis: "",
  summary: "bring the database to the latest version",
  description:
    "Applies the migrations the database lacks and prints them. Safe while other processes run and when two start at once; every start migrates too.",
  args: [],
  options: { json: jsonOption('the applied versions, {"applied": [...]},') },
  examples: ["vidrows migrate", "DATABASE_URL=postgres://user@db/vidrows vidrows migrate --json"],
  run: async ({ json }) => {
    // Building the app brings the database up to date; what it applied is printed.
    const applied = await withApp(async (app) => app.migrationsApplied);
    const said = applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.";
    printResult(json, { applied }, said);
  },
};

const createWorkspace: Command = {
  words: ["workspace", "create"],
  synopsis: "--name <name> --plan <plan>",
  summary: "a new workspace; prints its id and first key",
  description:
    "Creates a workspace on a plan with the plan's credits for its first cycle, and prints its id and its first API key. The key is shown this once: only its hash is stored.",
  args: [],
  options: {
    name: {
      type: "string",
      value: "<name>",
      description: `the workspace's name, 1 to ${maxNameLength} characters`,
    },
    plan: {
      type: "string",
      value: "<plan>",
      description: "its plan: free, pro or scale (or those of VIDROWS_PLANS)",
    },
    json: jsonOption('{"workspace_id", "api_key"}'),
  },
  examples: [
    'vidrows workspace create --name "Acme research" --plan pro',
    "vidrows workspace create --name ci --plan free --json",
  ],
  run: async ({ options, json }) => {
    const name = text(options.name);
    if (!name || name.length > maxNameLength) {
      throw new UsageError(`workspace create needs --name <name> (1 to ${maxNameLength} characters).`);
    }
    const plan = text(options.plan);
    if (!plan) throw new UsageError("workspace create needs --plan <plan>.");
    const created = await withApp(({ services }) => services.workspaces.create(name, plan));
    printResult(
      json,
      { workspace_id: created.workspaceId, api_key: created.apiKey },
      `Workspace ${created.workspaceId} created on plan ${plan}.\nIts API key, shown this once: ${created.apiKey}`,
    );
  },
};

const setPlan: Command = {
  words: ["workspace", "set-plan"],
  synopsis: "<workspace_id> <plan>",
  summary: "move a workspace to another plan",
  description:
    "Moves a workspace to another plan at once; an upgrade raises the balance to the new plan's allowance. Running servers apply it to the next request.",
  args: [
    { name: "<workspace_id>", description: "the workspace, as `vidrows workspace list` shows it" },
    { name: "<plan>", description: "the new plan: free, pro or scale (or those of VIDROWS_PLANS)" },
  ],
  options: { json: jsonOption('{"workspace_id", "plan", "balance"}') },
  examples: ["vidrows workspace set-plan ws_01j9z3k8m2q4r6t8v0w2x4y6z8 scale"],
  run: async ({ args, json }) => {
    const [workspaceId, planId] = args;
    if (!workspaceId || !planId) throw new UsageError("workspace set-plan needs <workspace_id> <plan>.");
    const row = await withApp(({ services }) => services.workspaces.setPlan(workspaceId, planId));
    printResult(
      json,
      { workspace_id: row.id, plan: row.plan_id, balance: row.balance },
      `Workspace ${row.id} is now on plan ${row.plan_id}; balance ${row.balance} credits.`,
    );
  },
};

const listWorkspaces: Command = {
  words: ["workspace", "list"],
  synopsis: "",
  summary: "every workspace: id, name, plan, balance, keys",
  description:
    "Lists every workspace, oldest first, with its plan, its credit balance as of now, how many of its API keys are not revoked, and when it was created (UTC).",
  args: [],
  options: {
    json: jsonOption('an array of {"workspace_id", "name", "plan", "balance", "active_keys", "created_at"}'),
  },
  examples: ["vidrows workspace list", "vidrows workspace list --json"],
  run: async ({ json }) => {
    const listed = await withApp(({ services }) => services.workspaces.list());
    const items = listed.map(({ row, activeKeys }) => ({
      workspace_id: row.id,
      name: row.name,
      plan: row.plan_id,
      balance: row.balance,
      active_keys: activeKeys,
      created_at: formatTimestamp(row.created_at),
    }));
    const headers = ["WORKSPACE", "NAME", "PLAN", "BALANCE", "KEYS", "CREATED"];
    const rows = items.map((i) => [
      i.workspace_id,
      i.name,
      i.plan,
      String(i.balance),
      String(i.active_keys),
      i.created_at,
    ]);
    const said =
      items.length === 0
        ? "No workspaces yet; `vidrows workspace create` makes one."
        : formatTable(headers, rows);
    printResult(json, items, said);
  },
};

const defaultKeyLabel = "Issued with vidrows workspace new-key";

const newKey: Command = {
  words: ["workspace", "new-key"],
  synopsis: "<workspace_id> [--label <label>]",
  summary: "a new API key, for when a workspace's are lost",
  description:
    "Creates a live API key for a workspace and prints it, this once. For when a workspace's keys are lost: the plan's key allowance is not enforced here, so revoke the lost keys with the new one (GET /v1/keys, DELETE /v1/keys/<id>).",
  args: [{ name: "<workspace_id>", description: "the workspace, as `vidrows workspace list` shows it" }],
  options: {
    label: {
      type: "string",
      value: "<label>",
      description: `a name for the key, up to ${maxNameLength} characters`,
    },
    json: jsonOption('{"workspace_id", "api_key", "key_id", "label"}'),
  },
  examples: [
    "vidrows workspace new-key ws_01j9z3k8m2q4r6t8v0w2x4y6z8",
    'vidrows workspace new-key ws_01j9z3k8m2q4r6t8v0w2x4y6z8 --label "laptop" --json',
  ],
  run: async ({ args, options, json }) => {
    const [workspaceId] = args;
    if (!workspaceId) throw new UsageError("workspace new-key needs <workspace_id>.");
    const label = text(options.label) ?? defaultKeyLabel;
    if (label.length > maxNameLength) {
      throw new UsageError(`--label is at most ${maxNameLength} characters; got ${label.length}.`);
    }
    const created = await withApp(({ services }) => services.workspaces.issueKey(workspaceId, label));
    printResult(
      json,
      { workspace_id: workspaceId, api_key: created.key, key_id: created.id, label: created.label },
      `New API key ${created.id} for workspace ${workspaceId}, shown this once: ${created.key}`,
    );
  },
};

const grantCredits: Command = {
  words: ["credits", "grant"],
  synopsis: "<workspace_id> <credits>",
  summary: "add credits to a workspace's balance",
  description:
    "Adds credits to a workspace's balance, recorded in its credit ledger. Granted credits carry over from cycle to cycle.",
  args: [
    { name: "<workspace_id>", description: "the workspace, as `vidrows workspace list` shows it" },
    { name: "<credits>", description: "a whole number of at least 1" },
  ],
  options: { json: jsonOption('{"workspace_id", "granted", "balance"}') },
  examples: ["vidrows credits grant ws_01j9z3k8m2q4r6t8v0w2x4y6z8 5000"],
  run: async ({ args, json }) => {
    const [workspaceId, rawCredits] = args;
    if (!workspaceId) throw new UsageError("credits grant needs <workspace_id> <credits>.");
    const credits = positiveCredits(rawCredits);
    const row = await withApp(({ services }) => services.workspaces.grantCredits(workspaceId, credits));
    printResult(
      json,
      { workspace_id: row.id, granted: credits, balance: row.balance },
      `Granted ${credits} credits to ${row.id}; balance ${row.balance} credits.`,
    );
  },
};

export const adminCommands: readonly Command[] = [
  migrate,
  listWorkspaces,
  createWorkspace,
  newKey,
  setPlan,
  grantCredits,
];
