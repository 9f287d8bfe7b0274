// API keys: the live keys and, apart, the revoked ones (never the full keys), creating one (shown once) and revoking one. Revoking the key
// the dashboard is signed in with signs the user out: the next call is refused with a 401.
import type { ApiKey, CreatedKey } from "@vidrows/client";
import { useState } from "preact/hooks";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { CreateKeyForm } from "../components/create-key-form.js";
import { ErrorMessage } from "../components/error-message.js";
import { Empty, Loading } from "../components/loading.js";
import { ShownOnce } from "../components/shown-once.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { useAction, useApi } from "../lib/use-api.js";

export function KeysPage() {
  const keys = useApi((client, signal) => client.keys.list({ signal }), []);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useAction((client, id: string) => client.keys.revoke(id).then(() => true));
  const confirmRevoke = async () => {
    const key = revoking;
    setRevoking(null);
    if (key && (await revoke.run(key.id))) keys.reload();
  };
  const created_ = (key: CreatedKey) => {
    setCreated(key);
    keys.reload();
  };
  const list = keys.data?.data;
  // Revoked keys are listed apart, so the live ones are what the first table shows.
  const live = list?.filter((key) => key.revoked_at === null);
  const revoked = list?.filter((key) => key.revoked_at !== null);
  return (
    <>
      <h1>API keys</h1>
      {created ? (
        <ShownOnce
          title={`Your new key${created.label ? ` “${created.label}”` : ""}`}
          value={created.key}
          onDone={() => setCreated(null)}
        />
      ) : (
        <CreateKeyForm onCreated={created_} />
      )}
      <h2>Live keys</h2>
      <ErrorMessage error={keys.error ?? revoke.error} />
      {!list && keys.loading && <Loading what="keys" />}
      {live && live.length === 0 && <Empty>No live keys.</Empty>}
      {live && live.length > 0 && (
        <TableScroll label="Live API keys">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Key</th>
                <th scope="col">Environment</th>
                <th scope="col">Last used</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {live.map((key) => (
                <tr key={key.id}>
                  <KeyCells apiKey={key} />
                  <td data-label="Created">
                    <Timestamp value={key.created_at} />
                  </td>
                  <td data-label="">
                    <button type="button" class="danger" onClick={() => setRevoking(key)}>
                      Revoke<span class="visually-hidden"> {key.label || key.masked_key}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {revoked && revoked.length > 0 && (
        <section aria-labelledby="revoked-keys-title">
          <h2 id="revoked-keys-title">Revoked keys</h2>
          <p class="hint">Refused on every request since they were revoked; kept here for the record.</p>
          <TableScroll label="Revoked API keys">
            <table class="stack revoked">
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">Key</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Revoked</th>
                </tr>
              </thead>
              <tbody>
                {revoked.map((key) => (
                  <tr key={key.id}>
                    <KeyCells apiKey={key} />
                    <td data-label="Revoked">
                      <Timestamp value={key.revoked_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      >
        <p>
          <code>{revoking?.masked_key}</code> will be refused at once, and this cannot be undone. If the
          dashboard is signed in with it, you will be signed out.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The cells a live and a revoked key share. */
function KeyCells({ apiKey: key }: { apiKey: ApiKey }) {
  return (
    <>
      <td data-label="Label">{key.label || "—"}</td>
      <td data-label="Key">
        <code>{key.masked_key}</code>
      </td>
      <td data-label="Environment">{key.environment}</td>
      <td data-label="Last used">
        <Timestamp value={key.last_used_at} empty="Never" />
      </td>
    </>
  );
}
