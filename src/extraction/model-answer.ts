// Reads a chat completion into rows, each with the transcript lines the model named for it, or says why
// the answer is unusable (and so worth asking again).
import type { Row } from "./extractor.js";
import { coerceRow, isEmptyRow } from "./row-coercion.js";
import { lineKeys } from "./rows-json-schema.js";

/** A row as the model answered it, with the line numbers it gave, unchecked (`row-sources.ts` checks them). */
export interface AnsweredRow {
  readonly row: Row;
  readonly firstLine: unknown;
  readonly lastLine: unknown;
}

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

/** An own property's value: an answer item is parsed JSON, where a key like `__proto__` must stay data. */
function ownValue(item: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(item, key) ? item[key] : undefined;
}

/**
 * The rows of a chat-completions answer, coerced to `columns`, with the lines the model named beside them
 * (under `lineKeys(columns)`, as the schema asks); rows with nothing in any column are dropped. A row
 * without line keys, as a server that ignores structured output may answer, has unknown lines (the whole
 * chunk, as `row-sources.ts` reads them).
 */
export function answeredRows(completion: unknown, columns: readonly string[]): AnsweredRow[] {
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
  const items: unknown[] = answer.rows;
  if (!items.every(isRecord))
    throw new MalformedAnswerError("The model's answer has a row that is not an object.");
  const lines = lineKeys(columns);
  const answered: AnsweredRow[] = [];
  for (const item of items) {
    const row = coerceRow(item, columns);
    if (!isEmptyRow(row, columns))
      answered.push({ row, firstLine: ownValue(item, lines.first), lastLine: ownValue(item, lines.last) });
  }
  return answered;
}
