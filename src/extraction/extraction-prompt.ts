// The messages of one model request: what to extract (the columns) and from what (one transcript chunk).
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

/**
 * The instructions: the same for every chunk of a job, so the columns and their descriptions are said once.
 * Short, because they are sent with every chunk: each sentence says something the answer's JSON schema
 * (`rows-json-schema.ts`) does not already bind.
 */
export function buildSystemPrompt(definition: SchemaDefinition): string {
  const columns = columnSpecs(definition).map((spec) => {
    const line = `- ${JSON.stringify(spec.name)}${typeNote(spec)}`;
    return spec.description === undefined ? line : `${line}: ${spec.description}`;
  });
  return [
    "Extract rows from a part of a video transcript, one row per distinct item it mentions. Columns:",
    ...columns,
    'Answer {"rows": [{"row": {...}, "first_line": n, "last_line": n}]}, the numbers of the transcript lines the row comes from.',
    'Take values only from the transcript, null when it does not say; numbers as numbers. No items: {"rows": []}.',
  ].join("\n");
}

export interface ChunkContext {
  readonly chunkCount: number;
  /** The caption track's language, when known (BCP-47). */
  readonly language?: string | undefined;
}

/**
 * The transcript part, one numbered line (`12. text`) per group of cues (`transcript-lines.ts`), with where
 * the part sits in the video. The model names a row's lines by these numbers (`row-sources.ts` reads them
 * back as times); lines carry no time stamps, which cost as much as a short cue's words and which the
 * model does not need to name lines.
 */
export function buildUserPrompt(chunk: TranscriptChunk, context: ChunkContext): string {
  const where = `part ${chunk.index + 1}/${context.chunkCount}, ${formatTimestamp(chunk.startMs)}-${formatTimestamp(chunk.endMs)}`;
  const language = context.language ? `, ${context.language}` : "";
  const lines = chunk.cues.map((line, i) => `${i + 1}. ${line.text}`);
  return [`Transcript (${where}${language}):`, ...lines].join("\n");
}
