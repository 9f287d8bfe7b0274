// The hard cap: a ceiling on the credits used in a cycle, set through PATCH /v1/usage; empty means no cap.
import type { Usage } from "@vidrows/client";
import { useEffect, useState } from "preact/hooks";
import { useAction } from "../lib/use-api.js";
import { ErrorMessage } from "./error-message.js";
import { fixing } from "./field-error.js";

interface HardCapFormProps {
  readonly hardCap: number | null;
  onSaved(usage: Usage): void;
}

export function HardCapForm({ hardCap, onSaved }: HardCapFormProps) {
  const [value, setValue] = useState(hardCap === null ? "" : String(hardCap));
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => setValue(hardCap === null ? "" : String(hardCap)), [hardCap]);
  const save = useAction((client, cap: number | null) => client.usage.setHardCap(cap));
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    const text = value.trim();
    // A number input holds a number or nothing; the server judges the number (negative, fractional).
    const usage = await save.run(text === "" ? null : Number(text));
    if (usage) {
      onSaved(usage);
      setSaved(usage.credits.hard_cap === null ? "Saved: no hard cap." : "Saved.");
    }
  };
  return (
    <form class="hard-cap" onSubmit={submit} noValidate>
      <label for="hard-cap">Hard cap</label>
      <p class="hint" id="hard-cap-hint">
        Most credits this workspace may use in a cycle. Leave empty for no cap.
      </p>
      <div class="inline">
        <input
          id="hard-cap"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          placeholder="No cap"
          value={value}
          aria-describedby="hard-cap-hint"
          onInput={(event) => {
            setValue(event.currentTarget.value);
            fixing(save, "hard_cap");
          }}
        />
        <button type="submit" disabled={save.busy}>
          Save
        </button>
      </div>
      <p role="status">{saved}</p>
      <ErrorMessage error={save.error} />
    </form>
  );
}
