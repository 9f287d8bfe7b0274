// A schema's columns edited as a small table: a name and a description per column.
import type { ColumnDraft } from "../lib/schema-columns.js";

interface ColumnsEditorProps {
  readonly columns: readonly ColumnDraft[];
  onChange(columns: ColumnDraft[]): void;
  /** The id of a message about the columns (the server's), read with the table. */
  readonly describedBy?: string;
}

export function ColumnsEditor({ columns, onChange, describedBy }: ColumnsEditorProps) {
  const set = (index: number, change: Partial<ColumnDraft>) =>
    onChange(columns.map((column, i) => (i === index ? { ...column, ...change } : column)));
  return (
    <fieldset class="columns" aria-describedby={describedBy}>
      <legend>Columns</legend>
      <p class="hint">
        Leave every description empty for plain columns; describe them to give the model a template.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Column name</th>
            <th scope="col">Description</th>
            <th scope="col">
              <span class="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column, index) => (
            <tr key={index}>
              <td>
                <input
                  aria-label={`Column ${index + 1} name`}
                  value={column.name}
                  onInput={(event) => set(index, { name: event.currentTarget.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Column ${index + 1} description`}
                  value={column.description}
                  onInput={(event) => set(index, { description: event.currentTarget.value })}
                />
              </td>
              <td>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove column ${index + 1}`}
                  disabled={columns.length === 1}
                  onClick={() => onChange(columns.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => onChange([...columns, { name: "", description: "" }])}>
        Add column
      </button>
    </fieldset>
  );
}
