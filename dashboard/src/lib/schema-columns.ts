// A schema as the editor holds it (rows of column name and description) and as the API takes it:
// plain columns when no description is given, a template with descriptions otherwise.
import type { SchemaDefinition } from "@vidrows/client";

type TemplateColumn = Extract<SchemaDefinition, { template: unknown }>["template"][string];
type TypedColumn = Exclude<TemplateColumn, string>;

export interface ColumnDraft {
  readonly name: string;
  readonly description: string;
  /** A typed column's type, enum and nullable: the editor does not change them, but keeps them. */
  readonly typing?: Omit<TypedColumn, "description">;
}

function draftOf(name: string, column: TemplateColumn): ColumnDraft {
  if (typeof column === "string") return { name, description: column };
  const { description, ...typing } = column;
  return { name, description, typing };
}

export function columnsOf(schema: SchemaDefinition): ColumnDraft[] {
  if ("columns" in schema) return schema.columns.map((name) => ({ name, description: "" }));
  return Object.entries(schema.template).map(([name, column]) => draftOf(name, column));
}

/** ` (number, one of: 1, 2)` for a typed column; nothing for an untyped one. */
export function typeNoteOf(draft: ColumnDraft): string {
  if (draft.typing === undefined) return "";
  const values = draft.typing.enum?.map((value) => JSON.stringify(value)).join(", ");
  return values === undefined ? ` (${draft.typing.type})` : ` (${draft.typing.type}, one of: ${values})`;
}

/** The API's form of the drafts; rows left wholly empty are dropped. */
export function schemaOf(drafts: readonly ColumnDraft[]): SchemaDefinition {
  const filled = drafts
    .map((draft) => ({ ...draft, name: draft.name.trim(), description: draft.description.trim() }))
    .filter((draft) => draft.name !== "" || draft.description !== "");
  if (filled.every((draft) => draft.description === "" && draft.typing === undefined))
    return { columns: filled.map((draft) => draft.name) };
  return {
    template: Object.fromEntries(
      filled.map((draft) => [
        draft.name,
        draft.typing === undefined ? draft.description : { description: draft.description, ...draft.typing },
      ]),
    ),
  };
}
