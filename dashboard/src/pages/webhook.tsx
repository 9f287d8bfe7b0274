// A webhook endpoint's delivery attempts, newest first: status, response code, time; resending an event.
import { useState } from "preact/hooks";
import { ErrorMessage } from "../components/error-message.js";
import { Link } from "../components/link.js";
import { Pager } from "../components/pager.js";
import { Empty, Loading } from "../components/loading.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { formatNumber } from "../lib/format.js";
import { useAction, useApi } from "../lib/use-api.js";

const pageSize = 25;

function outcomeOf(statusCode: number | null): string {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return "Delivered";
  return "Failed";
}

export function WebhookPage({ endpointId }: { endpointId: string }) {
  const [offset, setOffset] = useState(0);
  const attempts = useApi(
    (client, signal) => client.webhooks.attempts(endpointId, { limit: pageSize, offset }, { signal }),
    [endpointId, offset],
  );
  const [resent, setResent] = useState<string | null>(null);
  const resend = useAction((client, deliveryId: string) => client.webhooks.resend(endpointId, deliveryId));
  const resendOne = async (deliveryId: string) => {
    setResent(null);
    if (await resend.run(deliveryId)) {
      setResent(`Queued the event of delivery ${deliveryId} again.`);
      attempts.reload();
    }
  };
  const page = attempts.data;
  return (
    <>
      <p class="crumbs">
        <Link to="/webhooks">Webhooks</Link>
      </p>
      <h1>Delivery attempts</h1>
      <p>
        Endpoint <code>{endpointId}</code>
      </p>
      <button type="button" onClick={attempts.reload}>
        Refresh
      </button>
      <p role="status">{resent}</p>
      <ErrorMessage error={attempts.error ?? resend.error} />
      {!page && attempts.loading && <Loading what="attempts" />}
      {page && page.data.length === 0 && <Empty>No attempts yet: events are sent as jobs settle.</Empty>}
      {page && page.data.length > 0 && (
        <>
          <TableScroll label="Delivery attempts">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Status</th>
                  <th scope="col">Response code</th>
                  <th scope="col">Time</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((attempt) => (
                  <tr key={attempt.id} data-attempt={attempt.id}>
                    <td data-label="Event">
                      <code>{attempt.event_type}</code>
                    </td>
                    <td data-label="Attempt">{attempt.attempt}</td>
                    <td data-label="Status">
                      {outcomeOf(attempt.status_code)}
                      {attempt.error ? `: ${attempt.error}` : ""}
                    </td>
                    <td data-label="Response code">{attempt.status_code ?? "None"}</td>
                    <td data-label="Time">
                      <Timestamp value={attempt.created_at} /> ({formatNumber(attempt.duration_ms)} ms)
                    </td>
                    <td data-label="">
                      <button
                        type="button"
                        disabled={resend.busy}
                        onClick={() => resendOne(attempt.delivery_id)}
                      >
                        Resend<span class="visually-hidden"> {attempt.event_type}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager
            label="Pages of attempts"
            offset={offset}
            pageSize={pageSize}
            shown={page.data.length}
            total={page.pagination.total}
            hasMore={page.pagination.has_more}
            onOffset={setOffset}
          />
        </>
      )}
    </>
  );
}
