// A tokenizer-free estimate of how many tokens a text costs, and a cut of a text into pieces of a token budget.
//
// The model behind an OpenAI-compatible endpoint is unknown (OpenAI, Llama, Qwen, Mistral...), and each
// has its own tokenizer, so no one tokenizer would be right. An estimate by script is close enough for
// sizing chunks, and errs on the generous side: Latin text runs about 4 characters a token in the common
// tokenizers, other alphabets (Greek, Cyrillic, Arabic, Indic...) about 2, and CJK, kana, hangul and
// emoji about 1 or more, so counting Latin at 4 a token alone would make CJK chunks 4 times too big.

/** What one code point costs, in tokens. */
function codePointCost(codePoint: number): number {
  if (codePoint < 0x0250) return 0.25; // ASCII and the Latin blocks
  if (codePoint < 0x3000) return 0.5; // other alphabets and symbols
  return 1; // CJK, kana, hangul, emoji and the rest of the astral planes
}

function costOf(text: string): number {
  let cost = 0;
  for (const character of text) cost += codePointCost(character.codePointAt(0) ?? 0);
  return cost;
}

/** The estimated token count of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(costOf(text));
}

/**
 * Cuts a text into pieces of at most `maxTokens` estimated tokens each, between words where it can and
 * inside a word only when the word alone is over the budget (as unspaced CJK text is).
 */
export function splitByTokens(text: string, maxTokens: number): string[] {
  if (!Number.isInteger(maxTokens) || maxTokens < 1)
    throw new RangeError(`maxTokens must be >= 1; got ${maxTokens}.`);
  const pieces: string[] = [];
  let piece = "";
  let pieceCost = 0;
  const close = () => {
    const trimmed = piece.trim();
    if (trimmed !== "") pieces.push(trimmed);
    piece = "";
    pieceCost = 0;
  };
  for (const word of text.match(/\S+\s*/g) ?? []) {
    const wordCost = costOf(word);
    if (Math.ceil(pieceCost + wordCost) <= maxTokens) {
      piece += word;
      pieceCost += wordCost;
      continue;
    }
    close();
    if (Math.ceil(wordCost) <= maxTokens) {
      piece = word;
      pieceCost = wordCost;
      continue;
    }
    for (const character of word) {
      const cost = codePointCost(character.codePointAt(0) ?? 0);
      if (Math.ceil(pieceCost + cost) > maxTokens) close();
      piece += character;
      pieceCost += cost;
    }
  }
  close();
  return pieces;
}
