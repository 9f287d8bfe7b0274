// "Create endpoint": an https URL and the events it wants. On a plan without webhooks the server's
// `plan_limit` message takes the form's place, saying why.
import { type CreatedWebhookEndpoint, isVidrowsError, type WebhookEventType } from "@vidrows/client";
import { useState } from "preact/hooks";
import { useAction } from "../lib/use-api.js";
import { ErrorMessage } from "./error-message.js";
import { blames, FieldError, fixing } from "./field-error.js";

const eventTypes: { type: WebhookEventType; meaning: string }[] = [
  { type: "job.completed", meaning: "a job settled with at least one video done" },
  { type: "job.failed", meaning: "a job settled with every video failed" },
  { type: "batch.completed", meaning: "a batch of videos settled" },
];

export function CreateWebhookForm({ onCreated }: { onCreated(endpoint: CreatedWebhookEndpoint): void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(eventTypes.map((event) => event.type));
  const create = useAction((client) => client.webhooks.create({ url: url.trim(), events }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await create.run();
    if (created) {
      setUrl("");
      onCreated(created);
    }
  };
  const toggle = (type: WebhookEventType, on: boolean) => {
    setEvents(on ? [...events, type] : events.filter((event) => event !== type));
    fixing(create, "events");
  };
  const error = create.error;
  if (isVidrowsError(error) && error.code === "plan_limit") {
    return (
      <section class="notice" aria-labelledby="plan-limit-title">
        <h2 id="plan-limit-title">Webhooks are not part of your plan</h2>
        <ErrorMessage error={error} />
      </section>
    );
  }
  return (
    <form onSubmit={submit} noValidate class="stacked" aria-labelledby="create-webhook-title">
      <h2 id="create-webhook-title">New endpoint</h2>
      <div class="field">
        <label for="webhook-url">URL</label>
        <input
          id="webhook-url"
          type="url"
          placeholder="https://example.com/vidrows-events"
          value={url}
          aria-invalid={blames(error, "url")}
          onInput={(event) => {
            setUrl(event.currentTarget.value);
            fixing(create, "url");
          }}
        />
        <FieldError error={error} field="url" id="webhook-url-error" />
      </div>
      <fieldset>
        <legend>Events</legend>
        {eventTypes.map((event) => (
          <div class="check" key={event.type}>
            <input
              type="checkbox"
              id={`event-${event.type}`}
              checked={events.includes(event.type)}
              onChange={(change) => toggle(event.type, change.currentTarget.checked)}
            />
            <label for={`event-${event.type}`}>
              <code>{event.type}</code>: {event.meaning}
            </label>
          </div>
        ))}
        <FieldError error={error} field="events" id="webhook-events-error" />
      </fieldset>
      {!blames(error, "url") && !blames(error, "events") && <ErrorMessage error={error} />}
      <button type="submit" disabled={create.busy}>
        Create endpoint
      </button>
    </form>
  );
}
