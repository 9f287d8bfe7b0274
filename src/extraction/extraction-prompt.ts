// The messages of one model request: what to extract (the columns) and from what (one transcript chunk).
import type OpenAI from "openai";
import { type ColumnSpec, columnSpecs, type SchemaDefinition } from "../domain/schema-definition.js";
import type { TranscriptChunk } from "./transcript-chunks.js";

/** `m:ss`, or `h:mm:ss` past an hour: how people quote a time in a video. */
export function formatTimestamp(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** ` (integer, one of: 1, 2, 3; always given)` for a typed column; nothing for an untyped one. */
function typeNote(spec: ColumnSpec): string {
  if (spec.type === undefined) return "";
  const notes: string[] = [spec.type];
  if (spec.enum !== undefined)
    notes.push(`one of: ${spec.enum.map((value) => JSON.stringify(value)).join(", ")}`);
  if (!spec.nullable) notes.push("always given");
  return ` (${notes.join("; ")})`;
}

/** The instructions: the same for every chunk of a job, so the columns and their descriptions are said once. */
export function buildSystemPrompt(definition: SchemaDefinition): string {
  const columns = columnSpecs(definition).map((spec) => {
    const line = `- ${JSON.stringify(spec.name)}${typeNote(spec)}`;
    return spec.description === undefined ? line : `${line}: ${spec.description}`;
  });
  return [
    "You extract structured rows from a part of a video's transcript.",
    "Each row has exactly these columns:",
    ...columns,
    "",
    "The transcript's lines are numbered: each starts with its number, then the time it is said at in brackets.",
    'Answer with JSON of the form {"rows": [{"row": {...}, "first_line": 1, "last_line": 1}, ...]}: one item per distinct item the transcript mentions.',
    'In each item, "row" has every column, and "first_line" and "last_line" are the numbers of the first and last transcript lines the row was drawn from (the same number for one line).',
    "Take values from the transcript only; never invent them. Use null for a value the transcript does not give.",
    "Use a number for a numeric value, true or false for a yes-or-no value, and a string otherwise.",
    "A column whose type is given in brackets takes only values of that type, and of its list when one is given.",
    'If the transcript mentions nothing that fits, answer {"rows": []}.',
  ].join("\n");
}

export interface ChunkContext {
  readonly chunkCount: number;
  /** The caption track's language, when known (BCP-47). */
  readonly language?: string | undefined;
}

/**
 * The transcript part, one cue a line, each numbered from 1 and time-stamped, with where it sits in the
 * video. The model names a row's lines by these numbers (`row-sources.ts` reads them back as times).
 */
export function buildUserPrompt(chunk: TranscriptChunk, context: ChunkContext): string {
  const where = `part ${chunk.index + 1} of ${context.chunkCount}, from ${formatTimestamp(chunk.startMs)} to ${formatTimestamp(chunk.endMs)}`;
  const language = context.language ? `, language ${context.language}` : "";
  const lines = chunk.cues.map((cue, i) => `${i + 1}. [${formatTimestamp(cue.startMs)}] ${cue.text}`);
  return [`Transcript (${where}${language}):`, "", ...lines].join("\n");
}

export function buildExtractionMessages(
  definition: SchemaDefinition,
  chunk: TranscriptChunk,
  context: ChunkContext,
): OpenAI.ChatCompletionMessageParam[] {
  return [
    { role: "system", content: buildSystemPrompt(definition) },
    { role: "user", content: buildUserPrompt(chunk, context) },
  ];
}
