// "Publish version": a new version of a saved schema, starting from the latest; earlier ones never change.
import type { SchemaDefinition } from "@vidrows/client";
import { useState } from "preact/hooks";
import { type ColumnDraft, columnsOf, schemaOf } from "../lib/schema-columns.js";
import { useAction } from "../lib/use-api.js";
import { ColumnsEditor } from "./columns-editor.js";
import { ErrorMessage } from "./error-message.js";
import { blames, FieldError, fixing } from "./field-error.js";

interface PublishVersionProps {
  readonly schemaId: string;
  readonly latest: SchemaDefinition;
  onPublished(): void;
}

export function PublishVersion({ schemaId, latest, onPublished }: PublishVersionProps) {
  const [columns, setColumns] = useState<ColumnDraft[]>(() => columnsOf(latest));
  const [description, setDescription] = useState("");
  const [published, setPublished] = useState<string | null>(null);
  const publish = useAction((client) =>
    client.schemas.publishVersion(schemaId, {
      schema: schemaOf(columns),
      ...(description.trim() ? { description: description.trim() } : {}),
    }),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setPublished(null);
    const answer = await publish.run();
    if (answer) {
      setPublished(`Published version ${answer.version}.`);
      setDescription("");
      onPublished();
    }
  };
  const error = publish.error;
  return (
    <section aria-labelledby="publish-title">
      <h2 id="publish-title">Publish a new version</h2>
      <form onSubmit={submit} noValidate class="stacked">
        <ColumnsEditor
          columns={columns}
          onChange={(changed) => {
            setColumns(changed);
            fixing(publish, "schema");
          }}
          describedBy="publish-columns-error"
        />
        <FieldError error={error} field="schema" id="publish-columns-error" />
        <div class="field">
          <label for="version-description">Description of this version</label>
          <textarea
            id="version-description"
            rows={2}
            value={description}
            onInput={(event) => {
              setDescription(event.currentTarget.value);
              fixing(publish, "description");
            }}
          />
          <FieldError error={error} field="description" id="version-description-error" />
        </div>
        {!blames(error, "schema") && !blames(error, "description") && <ErrorMessage error={error} />}
        <button type="submit" disabled={publish.busy}>
          Publish version
        </button>
        <p role="status">{published}</p>
      </form>
    </section>
  );
}
