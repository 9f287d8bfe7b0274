// Reads a chat completion into rows, or says why the answer is unusable (and so worth asking again).
import type { Row } from "./extractor.js";
import { coerceRows } from "./row-coercion.js";

/** The model answered, but not with rows: cut off, refused, not JSON, or not `{rows: [object, ...]}`. */
export class MalformedAnswerError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A model that ignores structured output (some local servers do) tends to wrap its JSON in a Markdown
 * fence; unwrapping it costs nothing and saves a request.
 */
function withoutCodeFence(content: string): string {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(content);
  return fenced?.[1] ?? content;
}

/** The rows of a chat-completions answer, coerced to `columns`. */
export function rowsFromCompletion(completion: unknown, columns: readonly string[]): Row[] {
  const choice =
    isRecord(completion) && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!isRecord(choice)) throw new MalformedAnswerError("The model's answer has no choices.");
  const finishReason = choice.finish_reason;
  if (finishReason === "length")
    throw new MalformedAnswerError("The model's answer was cut off at its length limit.");
  if (finishReason === "content_filter")
    throw new MalformedAnswerError("The model's answer was withheld by a filter.");
  const message = isRecord(choice.message) ? choice.message : {};
  if (typeof message.refusal === "string" && message.refusal !== "") {
    throw new MalformedAnswerError("The model refused to answer.");
  }
  if (typeof message.content !== "string" || message.content.trim() === "") {
    throw new MalformedAnswerError("The model's answer is empty.");
  }
  let answer: unknown;
  try {
    answer = JSON.parse(withoutCodeFence(message.content));
  } catch {
    throw new MalformedAnswerError("The model's answer is not JSON.");
  }
  if (!isRecord(answer) || !Array.isArray(answer.rows)) {
    throw new MalformedAnswerError('The model\'s answer is not of the form {"rows": [...]}.');
  }
  const rows: unknown[] = answer.rows;
  if (!rows.every(isRecord))
    throw new MalformedAnswerError("The model's answer has a row that is not an object.");
  return coerceRows(rows, columns);
}
