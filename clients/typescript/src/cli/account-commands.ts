// `usage`, `schemas list|create|get|publish` and `keys list|create|revoke`.
import { type Command, integerOption, stringOption } from "./command.js";
import { exitCodes, UsageError } from "./exit-codes.js";
import { schemaFromOptions, schemaOptionHelp, schemaOptions } from "./schema-input.js";

const usage: Command = {
  name: "usage",
  usage: "[--hard-cap N|none]",
  summary:
    "Print credits, cycle, plan and job figures; --hard-cap sets or removes the ceiling on credits a cycle.",
  options: { "hard-cap": { type: "string" } },
  optionHelp: ["--hard-cap N|none  cap the credits used in a cycle, or remove the cap"],
  examples: ["usage", "usage --hard-cap 5000", "usage --hard-cap none"],
  positionals: { min: 0, max: 0 },
  async run(context) {
    const vr = context.client();
    const cap = stringOption(context, "hard-cap");
    if (cap === undefined) context.print(await vr.usage.get());
    else
      context.print(
        await vr.usage.setHardCap(
          cap === "none"
            ? null
            : (integerOption(context, "hard-cap", 0, 1e12, {
                what: "a whole number of credits",
                orElse: "none (no cap)",
              }) as number),
        ),
      );
    return exitCodes.ok;
  },
};

async function requiredSchema(context: Parameters<Command["run"]>[0]) {
  const schema = await schemaFromOptions(context);
  if (schema === undefined) throw new UsageError("Give the schema with --columns or --schema.");
  return schema;
}

const schemaCommands: Command[] = [
  {
    name: "schemas list",
    usage: "",
    summary: "List saved schemas, each at its latest version.",
    options: {},
    optionHelp: [],
    examples: ["schemas list"],
    positionals: { min: 0, max: 0 },
    async run(context) {
      context.print(await context.client().schemas.list());
      return exitCodes.ok;
    },
  },
  {
    name: "schemas create",
    usage: "--name NAME (--columns a,b,c | --schema FILE) [--description TEXT]",
    summary: "Save a schema (version 1); jobs then use it with --schema-id.",
    options: { name: { type: "string" }, description: { type: "string" }, ...schemaOptions },
    optionHelp: [
      "--name NAME       lowercase letters, numbers and hyphens",
      ...schemaOptionHelp,
      "--description TEXT",
    ],
    examples: [
      "schemas create --name products --columns product,price",
      "schemas create --name recipes --schema recipe.json",
    ],
    positionals: { min: 0, max: 0 },
    async run(context) {
      const name = stringOption(context, "name");
      if (name === undefined) throw new UsageError("--name is required.");
      const description = stringOption(context, "description");
      const schema = await requiredSchema(context);
      context.print(
        await context
          .client()
          .schemas.create({ name, schema, ...(description === undefined ? {} : { description }) }),
      );
      return exitCodes.ok;
    },
  },
  {
    name: "schemas get",
    usage: "<schema_id>",
    summary: "Print a saved schema with every version.",
    options: {},
    optionHelp: [],
    examples: ["schemas get sch_01..."],
    positionals: { min: 1, max: 1 },
    async run(context) {
      context.print(await context.client().schemas.get(context.positionals[0] as string));
      return exitCodes.ok;
    },
  },
  {
    name: "schemas publish",
    usage: "<schema_id> (--columns a,b,c | --schema FILE) [--description TEXT]",
    summary: "Publish a new version of a saved schema; earlier versions never change.",
    options: { description: { type: "string" }, ...schemaOptions },
    optionHelp: [...schemaOptionHelp, "--description TEXT"],
    examples: ["schemas publish sch_01... --columns product,price,currency"],
    positionals: { min: 1, max: 1 },
    async run(context) {
      const description = stringOption(context, "description");
      const schema = await requiredSchema(context);
      const body = { schema, ...(description === undefined ? {} : { description }) };
      context.print(await context.client().schemas.publishVersion(context.positionals[0] as string, body));
      return exitCodes.ok;
    },
  },
];

const keyCommands: Command[] = [
  {
    name: "keys list",
    usage: "",
    summary: "List the workspace's API keys, revoked ones included (masked).",
    options: {},
    optionHelp: [],
    examples: ["keys list"],
    positionals: { min: 0, max: 0 },
    async run(context) {
      context.print(await context.client().keys.list());
      return exitCodes.ok;
    },
  },
  {
    name: "keys create",
    usage: "[--label TEXT] [--note TEXT] [--environment live|test]",
    summary: "Create an API key; the full key is printed this once.",
    options: { label: { type: "string" }, note: { type: "string" }, environment: { type: "string" } },
    optionHelp: [
      "--label TEXT",
      "--note TEXT       for you; never listed",
      "--environment E   live (default) or test",
    ],
    examples: ["keys create --label ci --environment test"],
    positionals: { min: 0, max: 0 },
    async run(context) {
      const environment = stringOption(context, "environment");
      if (environment !== undefined && environment !== "live" && environment !== "test") {
        throw new UsageError(`--environment must be live or test; got "${environment}".`);
      }
      const label = stringOption(context, "label");
      const note = stringOption(context, "note");
      context.print(
        await context.client().keys.create({
          ...(label === undefined ? {} : { label }),
          ...(note === undefined ? {} : { note }),
          ...(environment === undefined ? {} : { environment }),
        }),
      );
      return exitCodes.ok;
    },
  },
  {
    name: "keys revoke",
    usage: "<key_id>",
    summary: "Revoke an API key at once, on every server; cannot be undone.",
    options: {},
    optionHelp: [],
    examples: ["keys revoke key_01..."],
    positionals: { min: 1, max: 1 },
    async run(context) {
      const id = context.positionals[0] as string;
      await context.client().keys.revoke(id);
      context.print({ id, revoked: true });
      return exitCodes.ok;
    },
  },
];

export const accountCommands: readonly Command[] = [usage, ...schemaCommands, ...keyCommands];
