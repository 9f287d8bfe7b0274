// "Cancel job" on a running job: videos not started fail at once, those in flight within seconds.
import { useAction } from "../lib/use-api.js";
import { ErrorMessage } from "./error-message.js";

export function CancelJob({ jobId, onCancelled }: { jobId: string; onCancelled(): void }) {
  const cancel = useAction((client) => client.jobs.cancel(jobId));
  const run = async () => {
    if (await cancel.run()) onCancelled();
  };
  return (
    <div class="actions">
      <button type="button" class="danger" onClick={run} disabled={cancel.busy}>
        Cancel job
      </button>
      {cancel.busy && <p role="status">Cancelling…</p>}
      <ErrorMessage error={cancel.error} />
    </div>
  );
}
