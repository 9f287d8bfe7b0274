// The server's validation error shown beside the field its `param` names (or left for the form's own message).
import { isVidrowsError } from "@vidrows/client";
import { ErrorMessage } from "./error-message.js";

/** Whether the server blamed `field` (or something inside it, e.g. `schema.template`). */
export function blames(error: unknown, field: string): boolean {
  if (!isVidrowsError(error) || error.param === null) return false;
  return error.param === field || error.param.startsWith(`${field}.`) || error.param.startsWith(`${field}[`);
}

export function FieldError({ error, field, id }: { error: unknown; field: string; id: string }) {
  return blames(error, field) ? <ErrorMessage error={error} id={id} /> : null;
}
