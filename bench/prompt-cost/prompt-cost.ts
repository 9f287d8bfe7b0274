// What the model is sent and answers for a caption file, in OpenAI's o200k tokens per token of transcript:
// the instructions, the JSON schema and the numbered lines of every chunk, against the transcript's own text.
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { parseCaptions } from "../../src/captions/caption-formats.js";
import type { CaptionCue } from "../../src/domain/transcript.js";
import { transcriptText } from "../../src/captions/caption-text.js";
import type { SchemaDefinition } from "../../src/domain/schema-definition.js";
import {
  buildSystemPrompt,
  buildUserPrompt,
  formatTimestamp,
} from "../../src/extraction/extraction-prompt.js";
import { buildRowsResponseFormat } from "../../src/extraction/rows-json-schema.js";
import {
  type ChunkingOptions,
  chunkTranscript,
  type TranscriptChunk,
} from "../../src/extraction/transcript-chunks.js";
import type { Mention, TalkCaptions } from "../../test/support/talk-captions.js";

/** A schema as a user writes one: three columns, two described, one typed. */
export const benchSchema: SchemaDefinition = {
  template: {
    product: "The product's name",
    price: { description: "Its price in US dollars", type: "number" },
    verdict: "What the speaker thinks of it, in a few words",
  },
};

/** What the chat format adds to each message (role, separators) and to the request, per OpenAI's cookbook. */
const tokensPerMessage = 4;
const tokensPerRequest = 3;

const tokens = (text: string) => encode(text).length;

/** The schema without the keys named: strict mode's `required` and `additionalProperties`, at every depth. */
function withoutKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutKeys(item, keys));
  if (typeof value !== "object" || value === null) return value;
  const kept = Object.entries(value).filter(([key]) => !keys.has(key));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutKeys(item, keys)]));
}

/**
 * What OpenAI was seen to bill for a response format's schema: its JSON without `required` and
 * `additionalProperties`, plus 9 tokens (matched against the API's reported usage by a user, in
 * openai/openai-cookbook issue 2140; OpenAI documents no rule). The raw JSON, counted in `promptTokens`,
 * is the upper bound.
 */
function billedSchemaTokens(schema: unknown): number {
  return tokens(JSON.stringify(withoutKeys(schema, new Set(["required", "additionalProperties"])))) + 9;
}

export interface PromptCost {
  readonly transcriptTokens: number;
  readonly chunks: number;
  readonly lines: number;
  /** The longest span of one numbered line, in seconds. */
  readonly longestLineSeconds: number;
  readonly promptTokens: number;
  /** Of `promptTokens`: the instructions, the JSON schema and the chat framing, over all chunks. */
  readonly instructionTokens: number;
  /** Of `promptTokens`: the line numbers, part headers and line breaks (the transcript's words aside). */
  readonly numberingTokens: number;
  /** An answer naming every item the talk mentions, in the strict JSON asked for. */
  readonly completionTokens: number;
  readonly promptPerTranscriptToken: number;
  /** `promptPerTranscriptToken` with the schema counted as OpenAI was seen to bill it (`billedSchemaTokens`). */
  readonly billedPromptPerTranscriptToken: number;
  readonly completionPerTranscriptToken: number;
}

/** How a chunk's user message is written: today's, or the one-cue-a-line format used before lines grouped cues. */
export type UserPrompt = (chunk: TranscriptChunk, chunkCount: number) => string;

const currentUserPrompt: UserPrompt = (chunk, chunkCount) =>
  buildUserPrompt(chunk, { chunkCount, language: "en" });

/** An answer's item for a row said on one line: today's, its line keys beside the columns. */
export type AnswerItem = (row: Record<string, unknown>, line: number) => Record<string, unknown>;

const currentAnswerItem: AnswerItem = (row, line) => ({ ...row, first_line: line, last_line: line });

/** How a request is written: its instructions, user message, answer schema and answer items. */
export interface PromptFormat {
  readonly systemPrompt: string;
  readonly userPrompt: UserPrompt;
  readonly rowsSchema: Record<string, unknown>;
  readonly answerItem: AnswerItem;
}

/** The answer a model gives for a chunk: one row per mention said within its lines, naming its line. */
function answerFor(chunk: TranscriptChunk, mentions: readonly Mention[], answerItem: AnswerItem): string {
  const rows = mentions.flatMap((mention) => {
    const line = chunk.cues.findIndex((cue) => cue.startMs <= mention.atMs && mention.atMs <= cue.endMs);
    if (line < 0) return [];
    const row = { product: mention.item, price: mention.price, verdict: "worth it for the price" };
    return [answerItem(row, line + 1)];
  });
  return JSON.stringify({ rows });
}

export function measurePromptCost(
  captions: TalkCaptions,
  chunking: ChunkingOptions,
  format: Partial<PromptFormat> = {},
): PromptCost {
  const cues: CaptionCue[] = parseCaptions(captions.text, captions.format);
  const transcriptTokens = tokens(transcriptText(cues));
  const chunks = chunkTranscript(cues, chunking);
  const system = format.systemPrompt ?? buildSystemPrompt(benchSchema);
  const userPrompt = format.userPrompt ?? currentUserPrompt;
  const answerItem = format.answerItem ?? currentAnswerItem;
  const schema = format.rowsSchema ?? buildRowsResponseFormat(benchSchema).json_schema.schema;
  const schemaText = JSON.stringify(schema);
  const billedSchemaSaving = tokens(schemaText) - billedSchemaTokens(schema);
  const perChunkInstructions = tokens(system) + tokens(schemaText) + 2 * tokensPerMessage + tokensPerRequest;
  let promptTokens = 0;
  let wordsTokens = 0;
  let completionTokens = 0;
  let lines = 0;
  let longestLineMs = 0;
  for (const chunk of chunks) {
    const user = userPrompt(chunk, chunks.length);
    promptTokens += perChunkInstructions + tokens(user);
    wordsTokens += tokens(chunk.cues.map((cue) => cue.text).join(" "));
    completionTokens += tokens(answerFor(chunk, captions.mentions, answerItem));
    lines += chunk.cues.length;
    for (const cue of chunk.cues) longestLineMs = Math.max(longestLineMs, cue.endMs - cue.startMs);
  }
  const instructionTokens = perChunkInstructions * chunks.length;
  return {
    transcriptTokens,
    chunks: chunks.length,
    lines,
    longestLineSeconds: longestLineMs / 1000,
    promptTokens,
    instructionTokens,
    numberingTokens: promptTokens - instructionTokens - wordsTokens,
    completionTokens,
    promptPerTranscriptToken: promptTokens / transcriptTokens,
    billedPromptPerTranscriptToken: (promptTokens - billedSchemaSaving * chunks.length) / transcriptTokens,
    completionPerTranscriptToken: completionTokens / transcriptTokens,
  };
}

/** The instructions sent before lines grouped cues, word for word, for the comparison. */
const previousSystemPrompt = [
  "You extract structured rows from a part of a video's transcript.",
  "Each row has exactly these columns:",
  '- "product": The product\'s name',
  '- "price" (number): Its price in US dollars',
  '- "verdict": What the speaker thinks of it, in a few words',
  "",
  "The transcript's lines are numbered: each starts with its number, then the time it is said at in brackets.",
  'Answer with JSON of the form {"rows": [{"row": {...}, "first_line": 1, "last_line": 1}, ...]}: one item per distinct item the transcript mentions.',
  'In each item, "row" has every column, and "first_line" and "last_line" are the numbers of the first and last transcript lines the row was drawn from (the same number for one line).',
  "Take values from the transcript only; never invent them. Use null for a value the transcript does not give.",
  "Use a number for a numeric value, true or false for a yes-or-no value, and a string otherwise.",
  "A column whose type is given in brackets takes only values of that type, and of its list when one is given.",
  'If the transcript mentions nothing that fits, answer {"rows": []}.',
].join("\n");

/** The user message before lines grouped cues: one cue a line, each numbered and time-stamped. */
const previousUserPrompt: UserPrompt = (chunk, chunkCount) => {
  const where = `part ${chunk.index + 1} of ${chunkCount}, from ${formatTimestamp(chunk.startMs)} to ${formatTimestamp(chunk.endMs)}`;
  const lines = chunk.cues.map((cue, i) => `${i + 1}. [${formatTimestamp(cue.startMs)}] ${cue.text}`);
  return [`Transcript (${where}, language en):`, "", ...lines].join("\n");
};

/** The chunking before lines grouped cues: 3,000 estimated tokens, 150 of overlap, one cue a line. */
export const previousChunking: ChunkingOptions = {
  chunkTokens: 3000,
  overlapTokens: 150,
  maxLineSeconds: 0,
  minLineSeconds: 0,
};

/** The bench schema's answer schema before issue 37: each row's columns in a `row` object beside its lines. */
const previousRowsSchema: Record<string, unknown> = {
  type: "object",
  properties: {
    rows: {
      type: "array",
      items: {
        type: "object",
        properties: {
          row: {
            type: "object",
            properties: {
              product: { type: ["string", "number", "boolean", "null"] },
              price: { type: ["number", "null"] },
              verdict: { type: ["string", "number", "boolean", "null"] },
            },
            required: ["product", "price", "verdict"],
            additionalProperties: false,
          },
          first_line: { type: "integer" },
          last_line: { type: "integer" },
        },
        required: ["row", "first_line", "last_line"],
        additionalProperties: false,
      },
    },
  },
  required: ["rows"],
  additionalProperties: false,
};

/** The whole format before lines grouped cues, for the comparison. */
export const previousFormat: PromptFormat = {
  systemPrompt: previousSystemPrompt,
  userPrompt: previousUserPrompt,
  rowsSchema: previousRowsSchema,
  answerItem: (row, line) => ({ row, first_line: line, last_line: line }),
};
