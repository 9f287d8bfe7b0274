// An error as the user sees it: the server's own message, and its request id to quote when asking for help.
import { isVidrowsError } from "@vidrows/client";

export function describeError(error: unknown): { message: string; requestId: string | null } {
  if (isVidrowsError(error)) return { message: error.message, requestId: error.requestId };
  return { message: error instanceof Error ? error.message : String(error), requestId: null };
}

export function ErrorMessage({ error, id }: { error: unknown; id?: string }) {
  if (error === null || error === undefined) return null;
  const { message, requestId } = describeError(error);
  return (
    <div class="error" role="alert" id={id}>
      <p>{message}</p>
      {requestId && (
        <p class="request-id">
          Request id: <code>{requestId}</code>
        </p>
      )}
    </div>
  );
}
