// "Cancel job" on a running job, after a confirmation: videos not started fail at once, those in flight
// within seconds, and nothing undoes it.
import { useState } from "preact/hooks";
import { useAction } from "../lib/use-api.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { ErrorMessage } from "./error-message.js";

export function CancelJob({ jobId, onCancelled }: { jobId: string; onCancelled(): void }) {
  const [asking, setAsking] = useState(false);
  const cancel = useAction((client) => client.jobs.cancel(jobId));
  const confirm = async () => {
    setAsking(false);
    if (await cancel.run()) onCancelled();
  };
  return (
    <div class="actions">
      <button type="button" class="danger" onClick={() => setAsking(true)} disabled={cancel.busy}>
        Cancel job
      </button>
      {cancel.busy && <p role="status">Cancelling…</p>}
      <ErrorMessage error={cancel.error} />
      <ConfirmDialog
        open={asking}
        title="Cancel this job?"
        confirmLabel="Yes, cancel the job"
        dismissLabel="Keep it running"
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      >
        <p>
          Videos not started yet fail at once, and those in progress within seconds; none of them is charged.
          Videos already done keep their rows. A cancelled job cannot be resumed.
        </p>
      </ConfirmDialog>
    </div>
  );
}
