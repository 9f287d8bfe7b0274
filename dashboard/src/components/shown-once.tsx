// A secret the server shows once (a new API key, a webhook signing secret): the value, a copy button,
// and the warning that it will not be shown again.
import { useState } from "preact/hooks";

interface ShownOnceProps {
  readonly title: string;
  readonly value: string;
  onDone(): void;
}

export function ShownOnce({ title, value, onDone }: ShownOnceProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied("Copied."),
      () => setCopied("The browser refused to copy; select the text and copy it by hand."),
    );
  return (
    <section class="shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title">{title}</h2>
      <p class="warning">Copy it now: it will not be shown again.</p>
      <p>
        <code class="secret" data-secret>
          {value}
        </code>
      </p>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status">{copied}</p>
    </section>
  );
}
