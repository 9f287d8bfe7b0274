// A schema as the editor holds it (rows of column name and description) and as the API takes it:
// plain columns when no description is given, a template with descriptions otherwise.
import type { SchemaDefinition } from "@vidrows/client";

export interface ColumnDraft {
  readonly name: string;
  readonly description: string;
}

export function columnsOf(schema: SchemaDefinition): ColumnDraft[] {
  if ("columns" in schema) return schema.columns.map((name) => ({ name, description: "" }));
  return Object.entries(schema.template).map(([name, description]) => ({ name, description }));
}

/** The API's form of the drafts; rows left wholly empty are dropped. */
export function schemaOf(drafts: readonly ColumnDraft[]): SchemaDefinition {
  const filled = drafts
    .map((draft) => ({ name: draft.name.trim(), description: draft.description.trim() }))
    .filter((draft) => draft.name !== "" || draft.description !== "");
  if (filled.every((draft) => draft.description === ""))
    return { columns: filled.map((draft) => draft.name) };
  return { template: Object.fromEntries(filled.map((draft) => [draft.name, draft.description])) };
}
