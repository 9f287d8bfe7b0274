// Webhooks: the endpoints, creating one (its signing secret shown once), pausing, re-enabling, deleting.
import type { CreatedWebhookEndpoint, WebhookEndpoint } from "@vidrows/client";
import { useState } from "preact/hooks";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { CreateWebhookForm } from "../components/create-webhook-form.js";
import { ErrorMessage } from "../components/error-message.js";
import { Link } from "../components/link.js";
import { Empty, Loading } from "../components/loading.js";
import { ShownOnce } from "../components/shown-once.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { useAction, useApi } from "../lib/use-api.js";

export function WebhooksPage() {
  const endpoints = useApi((client, signal) => client.webhooks.list({ signal }), []);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const change = useAction(async (client, endpoint: WebhookEndpoint, what: "pause" | "enable" | "delete") => {
    if (what === "delete") await client.webhooks.delete(endpoint.id);
    else await client.webhooks.update(endpoint.id, { disabled: what === "pause" });
    return true;
  });
  const act = async (endpoint: WebhookEndpoint, what: "pause" | "enable" | "delete") => {
    if (await change.run(endpoint, what)) endpoints.reload();
  };
  const onCreated = (endpoint: CreatedWebhookEndpoint) => {
    setCreated(endpoint);
    endpoints.reload();
  };
  const list = endpoints.data?.data;
  return (
    <>
      <h1>Webhooks</h1>
      {created ? (
        <ShownOnce
          title={`Signing secret for ${created.url}`}
          value={created.secret}
          onDone={() => setCreated(null)}
        />
      ) : (
        <CreateWebhookForm onCreated={onCreated} />
      )}
      <h2>Endpoints</h2>
      <ErrorMessage error={endpoints.error ?? change.error} />
      {!list && endpoints.loading && <Loading what="endpoints" />}
      {list && list.length === 0 && <Empty>No endpoints yet.</Empty>}
      {list && list.length > 0 && (
        <TableScroll label="Webhook endpoints">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td data-label="URL" class="url">
                    {endpoint.url}
                  </td>
                  <td data-label="Events">{endpoint.events.join(", ")}</td>
                  <td data-label="State">{endpoint.disabled ? "Paused" : "Active"}</td>
                  <td data-label="Created">
                    <Timestamp value={endpoint.created_at} />
                  </td>
                  <td data-label="" class="row-actions">
                    <Link to={`/webhooks/${encodeURIComponent(endpoint.id)}`}>Attempts</Link>
                    <button
                      type="button"
                      disabled={change.busy}
                      onClick={() => act(endpoint, endpoint.disabled ? "enable" : "pause")}
                    >
                      {endpoint.disabled ? "Enable" : "Pause"}
                    </button>
                    <button
                      type="button"
                      class="danger"
                      disabled={change.busy}
                      onClick={() => setDeleting(endpoint)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={() => {
          const endpoint = deleting;
          setDeleting(null);
          if (endpoint) void act(endpoint, "delete");
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>
          No more events will be sent to <code>{deleting?.url}</code>, and its delivery attempts go with it.
        </p>
      </ConfirmDialog>
    </>
  );
}
