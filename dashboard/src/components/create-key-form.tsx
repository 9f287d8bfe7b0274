// "Create key": label, note and environment; the full key is shown once, by the page that holds it.
import type { CreatedKey } from "@vidrows/client";
import { useState } from "preact/hooks";
import { useAction } from "../lib/use-api.js";
import { ErrorMessage } from "./error-message.js";

export function CreateKeyForm({ onCreated }: { onCreated(key: CreatedKey): void }) {
  const [label, setLabel] = useState("");
  const [note, setNote] = useState("");
  const [environment, setEnvironment] = useState<"live" | "test">("live");
  const create = useAction((client) =>
    client.keys.create({
      environment,
      ...(label.trim() ? { label: label.trim() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    }),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await create.run();
    if (created) {
      setLabel("");
      setNote("");
      onCreated(created);
    }
  };
  return (
    <form onSubmit={submit} noValidate class="stacked" aria-labelledby="create-key-title">
      <h2 id="create-key-title">New key</h2>
      <div class="field">
        <label for="key-label">Label</label>
        <input
          id="key-label"
          value={label}
          maxLength={100}
          onInput={(event) => setLabel(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="key-note">Note</label>
        <input
          id="key-note"
          value={note}
          maxLength={200}
          onInput={(event) => setNote(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="key-environment">Environment</label>
        <select
          id="key-environment"
          value={environment}
          onChange={(event) => setEnvironment(event.currentTarget.value as "live" | "test")}
        >
          <option value="live">Live</option>
          <option value="test">Test</option>
        </select>
      </div>
      <ErrorMessage error={create.error} />
      <button type="submit" disabled={create.busy}>
        Create key
      </button>
    </form>
  );
}
