// The server's validation error shown beside the field its `param` names (or left for the form's own message),
// and gone once the person changes that field: the message was about the value they are now fixing.
import { isVidrowsError } from "@vidrows/client";
import { ErrorMessage } from "./error-message.js";

/** Whether the server blamed `field` (or something inside it, e.g. `schema.template`). */
export function blames(error: unknown, field: string): boolean {
  if (!isVidrowsError(error) || error.param === null) return false;
  return error.param === field || error.param.startsWith(`${field}.`) || error.param.startsWith(`${field}[`);
}

/** Forgets `action`'s error when it blames `field`: called as that field changes. */
export function fixing(action: { readonly error: unknown; clearError(): void }, field: string): void {
  if (blames(action.error, field)) action.clearError();
}

export function FieldError({ error, field, id }: { error: unknown; field: string; id: string }) {
  return blames(error, field) ? <ErrorMessage error={error} id={id} /> : null;
}
