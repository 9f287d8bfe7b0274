// The prompt-cost section: o200k tokens sent and answered per token of transcript, on real-shaped caption
// files (a 50-minute automatic track, a 12-minute manual one), for today's prompt and chunk size, for other
// chunk sizes, and for the one-cue-a-line format the prompts used before, all in the same run.
import { defaultChunking } from "../../src/extraction/transcript-chunks.js";
import { automaticTrack, manualTrack, type TalkCaptions } from "../../test/support/talk-captions.js";
import { measurePromptCost, previousChunking, previousFormat, type PromptCost } from "./prompt-cost.js";

export interface PromptCostRow extends PromptCost {
  readonly track: string;
  readonly variant: string;
  /** The target's limit on `promptPerTranscriptToken` for this track, checked on the default variant. */
  readonly limit: number | undefined;
}

export interface PromptCostSectionResult {
  readonly rows: PromptCostRow[];
}

const chunkSizes = [3000, 6000, 8000, 12000, 16000];

export function runPromptCostSection(): PromptCostSectionResult {
  const tracks: [string, TalkCaptions, number][] = [
    ["50-min automatic (json3)", automaticTrack(50 * 60), 1.12],
    ["12-min manual (WebVTT)", manualTrack(12 * 60), 1.12],
  ];
  const rows: PromptCostRow[] = [];
  for (const [track, captions, limit] of tracks) {
    rows.push({
      track,
      variant: "before: one cue a line, time-stamped, 3,000-token chunks",
      limit: undefined,
      ...measurePromptCost(captions, previousChunking, previousFormat),
    });
    for (const chunkTokens of chunkSizes) {
      const isDefault = chunkTokens === defaultChunking.chunkTokens;
      rows.push({
        track,
        variant: `numbered spans, ${chunkTokens.toLocaleString("en")}-token chunks${isDefault ? " (default)" : ""}`,
        limit: isDefault ? limit : undefined,
        ...measurePromptCost(captions, { ...defaultChunking, chunkTokens }),
      });
    }
  }
  return { rows };
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);

export function promptCostTable(section: PromptCostSectionResult): string {
  return [
    "### Prompt cost: o200k tokens per token of transcript, real-shaped caption files",
    "",
    "Prompt: every chunk's instructions, JSON schema (as its raw JSON, the upper bound), chat framing, part header and numbered lines. Completion: an answer naming every item the talk prices (`bench/prompt-cost/prompt-cost.ts`). *Schema as billed*: the same prompt with the schema counted as OpenAI was seen to bill it (without `required` and `additionalProperties`, plus 9: openai/openai-cookbook issue 2140; OpenAI documents no rule). Limit and Met: the raw count.",
    "",
    "| Track | Prompt format | Transcript tokens | Chunks | Lines | Longest line (s) | Prompt tokens | of which instructions | of which numbering | Prompt / transcript | Schema as billed | Completion / transcript | Limit | Met |",
    "| ----- | ------------- | ----------------: | -----: | ----: | ---------------: | ------------: | --------------------: | -----------------: | ------------------: | ---------------: | ----------------------: | ----: | :-: |",
    ...section.rows.map(
      (row) =>
        `| ${row.track} | ${row.variant} | ${row.transcriptTokens} | ${row.chunks} | ${row.lines} | ${fixed(row.longestLineSeconds, 1)} | ${row.promptTokens} | ${row.instructionTokens} | ${row.numberingTokens} | ${fixed(row.promptPerTranscriptToken)} | ${fixed(row.billedPromptPerTranscriptToken)} | ${fixed(row.completionPerTranscriptToken)} | ${row.limit ?? ""} | ${row.limit === undefined ? "" : row.promptPerTranscriptToken <= row.limit ? "yes" : "**no**"} |`,
    ),
  ].join("\n");
}
