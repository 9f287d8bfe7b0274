// The messages of one model request: what to extract (the columns) and from what (one transcript chunk).
import { type ColumnSpec, columnSpecs, type SchemaDefinition } from "../domain/schema-definition.js";
import { lineKeys } from "./rows-json-schema.js";
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

/** A name that reads as one word needs no quotes (2 tokens each); any other is quoted, so its end is plain. */
const bareName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `price` or `"unit price"`: a column's name as the instructions write it. */
function nameAsWritten(name: string): string {
  return bareName.test(name) ? name : JSON.stringify(name);
}

/**
 * The instructions: the same for every chunk of a job, so the columns and their descriptions are said once.
 * Short, because they are sent with every chunk: each sentence says something the answer's JSON schema
 * (`rows-json-schema.ts`) does not already bind. The answer's shape is the schema's alone (the model must
 * support structured output, as the README says): spelling it out here too cost 33 tokens a chunk. The line
 * keys are listed as one more item, under the names the schema gives them.
 */
export function buildSystemPrompt(definition: SchemaDefinition): string {
  const specs = columnSpecs(definition);
  const columns = specs.map((spec) => {
    const line = `- ${nameAsWritten(spec.name)}${typeNote(spec)}`;
    return spec.description === undefined ? line : `${line}: ${spec.description}`;
  });
  const lines = lineKeys(specs.map((spec) => spec.name));
  return [
    "A row per distinct item the transcript mentions:",
    ...columns,
    `- ${lines.first}, ${lines.last}: its numbered lines`,
    "Values only from the transcript, else null; numbers as numbers.",
  ].join("\n");
}

export interface ChunkContext {
  readonly chunkCount: number;
  /** The caption track's language, when known (BCP-47). */
  readonly language?: string | undefined;
}

/**
 * The transcript part, one numbered line (`12 text`) per group of cues (`transcript-lines.ts`), with which
 * part of how many it is when there are several, and its language. The model names a row's lines by these
 * numbers (`row-sources.ts` reads them back as times). Each costs one token, its line break often shared
 * with the sentence's end: a dot after the number cost one more a line, and time stamps (here, or the
 * part's span in the header) cost as much as a short cue's words and are not needed to name lines.
 */
export function buildUserPrompt(chunk: TranscriptChunk, context: ChunkContext): string {
  const part = context.chunkCount > 1 ? ` part ${chunk.index + 1}/${context.chunkCount}` : "";
  const language = context.language ? `, ${context.language}` : "";
  const lines = chunk.cues.map((line, i) => `${i + 1} ${line.text}`);
  return [`Transcript${part}${language}:`, ...lines].join("\n");
}
