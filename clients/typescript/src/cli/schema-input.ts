// The schema a command is given: `--columns a,b,c`, or `--schema file.json` holding {columns} or {template}.
import { readFile } from "node:fs/promises";
import type { SchemaDefinition } from "../api-types.js";
import { type CommandContext, listOption, stringOption } from "./command.js";
import { UsageError } from "./exit-codes.js";

export const schemaOptions = {
  columns: { type: "string" },
  schema: { type: "string" },
} as const;

export const schemaOptionHelp = [
  "--columns a,b,c   the schema as column names",
  '--schema FILE     the schema from a JSON file: {"columns": [...]} or {"template": {"column": "description"}}',
];

/** The schema given by --columns or --schema, or undefined when neither was; both at once is a usage error. */
export async function schemaFromOptions(context: CommandContext): Promise<SchemaDefinition | undefined> {
  const columns = listOption(context, "columns");
  const file = stringOption(context, "schema");
  if (columns !== undefined && file !== undefined)
    throw new UsageError("Give --columns or --schema, not both.");
  if (columns !== undefined) {
    if (columns.length === 0) throw new UsageError("--columns needs at least one column name.");
    return { columns };
  }
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read --schema ${file}: ${(error as Error).message}`);
  }
  try {
    // The server checks the shape and says what is wrong with it.
    return JSON.parse(text) as SchemaDefinition;
  } catch (error) {
    throw new UsageError(`--schema ${file} is not JSON: ${(error as Error).message}`);
  }
}
