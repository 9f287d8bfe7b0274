// A schema version's columns, read-only: names and, for a template, what each holds.
import type { SchemaDefinition } from "@vidrows/client";
import { columnsOf, typeNoteOf } from "../lib/schema-columns.js";

export function SchemaTable({ schema, label }: { schema: SchemaDefinition; label: string }) {
  const columns = columnsOf(schema);
  const described = "template" in schema;
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Column</th>
          {described && <th scope="col">Description</th>}
        </tr>
      </thead>
      <tbody>
        {columns.map((column) => (
          <tr key={column.name}>
            <td>
              <code>{column.name}</code>
            </td>
            {described && (
              <td>
                {column.description}
                {typeNoteOf(column)}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
