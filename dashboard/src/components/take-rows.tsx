// "Take rows": the one read that hands a settled job's rows over, behind a confirmation saying so.
import type { SettledJob } from "@vidrows/client";
import { useState } from "preact/hooks";
import { useAction } from "../lib/use-api.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { ErrorMessage } from "./error-message.js";

export function TakeRows({ jobId, onTaken }: { jobId: string; onTaken(job: SettledJob): void }) {
  const [asking, setAsking] = useState(false);
  const take = useAction((client) => client.jobs.takeRows(jobId));
  const confirm = async () => {
    setAsking(false);
    const read = await take.run();
    // A settled job answers with its results; the running shape cannot come back for a settled job.
    if (read && read.status !== "processing") onTaken(read);
  };
  return (
    <section aria-labelledby="take-title">
      <h2 id="take-title">Rows</h2>
      <p>
        The server hands a job's rows over once: the read that takes them deletes them. Listing jobs and
        following progress never takes them.
      </p>
      <button type="button" onClick={() => setAsking(true)} disabled={take.busy}>
        Take rows
      </button>
      {take.busy && <p role="status">Taking the rows…</p>}
      <ErrorMessage error={take.error} />
      <ConfirmDialog
        open={asking}
        title="Take the rows now?"
        confirmLabel="Yes, take the rows"
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      >
        <p>
          This can be done once. The server deletes the rows as it hands them over, so after this no one can
          get them again. Download them from this page before you leave it.
        </p>
      </ConfirmDialog>
    </section>
  );
}
