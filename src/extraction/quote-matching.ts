// Whether a row's value is in the quote it was drawn from: the matching rules behind a source's `unverified`.
//
// The check is for a person reading a row beside its quote, so it must not flag what they would call "in the
// quote". Both the quote and a string value are read into the same canonical words first:
//
// - case, accents and punctuation do not count: `Café-Racer!` is the words `cafe racer`; apostrophes join
//   (`McDonald's` is `mcdonalds`);
// - a number is its value, however written: separators and currency signs go (`$1,200.00` is `1200`), and so
//   do ordinal endings (`21st` is `21`);
// - the number words an automatic track writes are numbers: `twelve` is `12`, `twenty-five` is `25`,
//   `one hundred and five` is `105`, `a thousand` is `1000`, and a number followed by a scale word is
//   multiplied (`1.5 million` is `1500000`, `twelve hundred` is `1200`).
//
// A string value is in the quote when its words are consecutive words of the quote (a value in a script
// written without spaces, such as Chinese or Japanese, when its characters are consecutive characters of
// the quote, spaces aside). A number value is in the quote when one of the quote's numbers equals it, sign
// aside (a quote saying "down five percent" supports -5). A value with no words at all (`""`, `"—"`) has
// nothing to check. Booleans and enum columns are never checked: their values are the model's reading of
// the words, not words it copied.
import type { ColumnSpec } from "../domain/schema-definition.js";
import {
  canonicalWords,
  exactly,
  numberOf,
  type PlacedWord,
  placedCanonicalWords,
} from "./canonical-words.js";
import type { CellValue, Row } from "./extractor.js";

/** Scripts written without spaces between words, where a value is looked for character by character. */
const unspacedScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** A quote read once, to check every value of a row against. */
export interface ReadQuote {
  /** The canonical words joined by single spaces, with a space at each end. */
  readonly spaced: string;
  /** The canonical words joined with nothing between them, for unspaced scripts. */
  readonly unspaced: string;
  readonly numbers: ReadonlySet<number>;
}

export function readQuote(quote: string): ReadQuote {
  const words = canonicalWords(quote);
  const numbers = new Set<number>();
  for (const word of words) {
    const value = numberOf(word);
    if (value !== undefined) numbers.add(value);
  }
  return { spaced: ` ${words.join(" ")} `, unspaced: words.join(""), numbers };
}

/** Whether a string or number value is in the quote, by the rules above. */
export function quoteHolds(quote: ReadQuote, value: string | number): boolean {
  if (typeof value === "number") return quote.numbers.has(exactly(Math.abs(value)));
  const words = canonicalWords(value);
  if (words.length === 0) return true;
  if (unspacedScript.test(value)) return quote.unspaced.includes(words.join(""));
  return quote.spaced.includes(` ${words.join(" ")} `);
}

/** Whether a column's value is one the check applies to: a string or number, outside an enum column. */
function isChecked(spec: ColumnSpec, value: CellValue): value is string | number {
  if (spec.enum !== undefined) return false;
  return typeof value === "string" || typeof value === "number";
}

/** The names of the row's columns, in the schema's order, whose string or number value the quote does not hold. */
export function unverifiedColumns(row: Row, specs: readonly ColumnSpec[], quote: string): string[] {
  const read = readQuote(quote);
  return specs
    .filter((spec) => {
      const value = row[spec.name] ?? null;
      return isChecked(spec, value) && !quoteHolds(read, value);
    })
    .map((spec) => spec.name);
}

/** How many of the row's checked values the text holds: which line of a too-wide span a row is drawn from. */
export function heldColumnCount(row: Row, specs: readonly ColumnSpec[], text: string): number {
  const read = readQuote(text);
  return specs.filter((spec) => {
    const value = row[spec.name] ?? null;
    return isChecked(spec, value) && quoteHolds(read, value);
  }).length;
}

/** Where a value is held in a text: its first and last whitespace-separated tokens (from 0). */
interface Held {
  readonly start: number;
  readonly end: number;
}

/** Every place, in order, where `placed` words hold a string or number value, by the rules above. */
function placesHolding(placed: readonly PlacedWord[], value: string | number): Held[] {
  const at = (from: number, to: number): Held => ({
    start: (placed[from] as PlacedWord).token,
    end: (placed[to] as PlacedWord).token,
  });
  if (typeof value === "number") {
    const wanted = exactly(Math.abs(value));
    return placed.flatMap((word, i) => (numberOf(word.word) === wanted ? [at(i, i)] : []));
  }
  const words = canonicalWords(value);
  if (words.length === 0) return [];
  if (unspacedScript.test(value)) {
    const starts: number[] = [];
    let joined = "";
    for (const word of placed) {
      starts.push(joined.length);
      joined += word.word;
    }
    const wanted = words.join("");
    const wordAt = (offset: number) => starts.findLastIndex((start) => start <= offset);
    const found: Held[] = [];
    for (let offset = joined.indexOf(wanted); offset >= 0; offset = joined.indexOf(wanted, offset + 1)) {
      found.push(at(wordAt(offset), wordAt(offset + wanted.length - 1)));
    }
    return found;
  }
  return placed.flatMap((_, i) =>
    words.every((word, j) => placed[i + j]?.word === word) ? [at(i, i + words.length - 1)] : [],
  );
}

/**
 * Where in `text` the row's evidence begins: the first whitespace-separated token (from 0) of the shortest
 * stretch that holds every checked value the text holds (the earliest of equals), so that a value said
 * again elsewhere in the text does not move the start away from where the row's words are said together;
 * undefined when the text holds none of the row's values.
 */
export function evidenceStartToken(row: Row, specs: readonly ColumnSpec[], text: string): number | undefined {
  const placed = placedCanonicalWords(text);
  const places = specs.flatMap((spec) => {
    const value = row[spec.name] ?? null;
    const found = isChecked(spec, value) ? placesHolding(placed, value) : [];
    return found.length > 0 ? [found] : [];
  });
  let best: Held | undefined;
  for (const { start } of places.flat()) {
    // The stretch from `start` to where every value is next held from there on, if each is.
    const nexts = places.map((found) => found.find((held) => held.start >= start));
    if (nexts.some((held) => held === undefined)) continue;
    const end = Math.max(...nexts.map((held) => (held as Held).end));
    const shorter = best === undefined || end - start < best.end - best.start;
    const asShortEarlier = best !== undefined && end - start === best.end - best.start && start < best.start;
    if (shorter || asShortEarlier) best = { start, end };
  }
  return best?.start;
}
