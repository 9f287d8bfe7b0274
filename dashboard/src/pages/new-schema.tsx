// Create a schema: name, description and columns; the server's validation errors beside the field named.
import { useState } from "preact/hooks";
import { ColumnsEditor } from "../components/columns-editor.js";
import { ErrorMessage } from "../components/error-message.js";
import { blames, FieldError, fixing } from "../components/field-error.js";
import { Link } from "../components/link.js";
import { navigate } from "../lib/router.js";
import { type ColumnDraft, schemaOf } from "../lib/schema-columns.js";
import { useAction } from "../lib/use-api.js";

export function NewSchemaPage() {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [columns, setColumns] = useState<ColumnDraft[]>([{ name: "", description: "" }]);
  const create = useAction((client) =>
    client.schemas.create({ name: name.trim(), description: description.trim(), schema: schemaOf(columns) }),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await create.run();
    if (created) navigate(`/schemas/${encodeURIComponent(created.id)}`);
  };
  const error = create.error;
  const placed = blames(error, "name") || blames(error, "description") || blames(error, "schema");
  return (
    <>
      <p class="crumbs">
        <Link to="/schemas">Schemas</Link>
      </p>
      <h1>Create schema</h1>
      <form onSubmit={submit} noValidate class="stacked">
        <div class="field">
          <label for="schema-name">Name</label>
          <p class="hint" id="schema-name-hint">
            Lowercase letters, numbers and hyphens; up to 64 characters.
          </p>
          <input
            id="schema-name"
            value={name}
            aria-invalid={blames(error, "name")}
            aria-describedby={
              blames(error, "name") ? "schema-name-hint schema-name-error" : "schema-name-hint"
            }
            onInput={(event) => {
              setName(event.currentTarget.value);
              fixing(create, "name");
            }}
          />
          <FieldError error={error} field="name" id="schema-name-error" />
        </div>
        <div class="field">
          <label for="schema-description">Description</label>
          <textarea
            id="schema-description"
            rows={2}
            value={description}
            aria-invalid={blames(error, "description")}
            onInput={(event) => {
              setDescription(event.currentTarget.value);
              fixing(create, "description");
            }}
          />
          <FieldError error={error} field="description" id="schema-description-error" />
        </div>
        <ColumnsEditor
          columns={columns}
          onChange={(changed) => {
            setColumns(changed);
            fixing(create, "schema");
          }}
          describedBy="schema-columns-error"
        />
        <FieldError error={error} field="schema" id="schema-columns-error" />
        {!placed && <ErrorMessage error={error} />}
        <button type="submit" disabled={create.busy}>
          Create schema
        </button>
      </form>
    </>
  );
}
