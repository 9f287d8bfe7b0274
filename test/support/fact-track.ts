// A spoken track at a chosen speaking rate where a fact is said across every cue boundary: each cue ends
// with `the <name> costs` and the next begins with `<price> dollars`. Lines and chunks end between cues,
// so every boundary a chunking makes cuts a fact in two. Deterministic from a seed.
import type { CaptionCue } from "../../src/domain/transcript.js";

export interface Fact {
  readonly product: string;
  readonly price: number;
}

export interface FactTrack {
  readonly cues: CaptionCue[];
  readonly facts: readonly Fact[];
  readonly durationSeconds: number;
}

/** `the zokamiru costs 348 dollars`, over a cue boundary: what the reading model looks for. */
export const factPattern = /the\s+([a-z]+)\s+costs\s+(\d+)\s+dollars/g;

/** Words that are neither numbers nor the fact's own words, of the lengths speech has. */
const filler = [
  "so",
  "we",
  "really",
  "like",
  "how",
  "this",
  "works",
  "in",
  "my",
  "kitchen",
  "and",
  "honestly",
  "it",
  "is",
  "pretty",
  "good",
  "for",
  "everyday",
  "cooking",
  "you",
  "can",
  "see",
  "texture",
  "here",
  "which",
  "matters",
  "a",
  "lot",
];

const syllables = ["ka", "zo", "mi", "ru", "te", "pa", "lo", "vu"];

/** A made-up product name per index, unique below 8^5, never a word of the filler. */
function nameOf(index: number): string {
  let name = "";
  for (let n = index, i = 0; i < 5; i++, n = Math.floor(n / 8)) name += syllables[n % 8];
  return name;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * About `minutes` of speech at `wordsPerMinute`, evenly timed, in cues of 6 to 12 words with no
 * punctuation and no pauses (as an automatic track), so lines run to their longest.
 */
export function factTrack(wordsPerMinute: number, minutes: number, seed = 1): FactTrack {
  const random = seeded(seed);
  const wordMs = 60_000 / wordsPerMinute;
  const totalWords = Math.round(wordsPerMinute * minutes);
  const cues: CaptionCue[] = [];
  const facts: Fact[] = [];
  let word = 0;
  let pending: Fact | undefined;
  while (word < totalWords) {
    const words: string[] = pending ? [String(pending.price), "dollars"] : [];
    const size = 6 + Math.floor(random() * 7);
    while (words.length < size - 3) words.push(filler[Math.floor(random() * filler.length)] as string);
    const last = word + size >= totalWords;
    if (!last) {
      pending = { product: nameOf(facts.length), price: 10 + Math.floor(random() * 990) };
      facts.push(pending);
      words.push("the", pending.product, "costs");
    }
    cues.push({
      startMs: Math.round(word * wordMs),
      endMs: Math.round((word + words.length) * wordMs),
      text: words.join(" "),
    });
    word += words.length;
  }
  return { cues, facts, durationSeconds: Math.ceil((word * wordMs) / 1000) };
}
