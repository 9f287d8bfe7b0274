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
import type { CellValue, Row } from "./extractor.js";

const units: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};

const tens: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

const scales: Readonly<Record<string, number>> = {
  hundred: 100,
  thousand: 1_000,
  million: 1_000_000,
  billion: 1_000_000_000,
  trillion: 1_000_000_000_000,
};

/** Scripts written without spaces between words, where a value is looked for character by character. */
const unspacedScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** Digits as one number: thousands separators and an ordinal ending go, a decimal point stays. */
const digitWord = /^(\d+(?:,\d{3})*(?:\.\d+)?)(?:st|nd|rd|th)?$/;

/**
 * Lower case, accents stripped, apostrophes joined, and every other run of characters that are not
 * letters, digits, or a separator or point between digits turned into one space.
 */
function rawWords(text: string): string[] {
  const plain = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    // A comma or point between digits is part of the number; elsewhere it is punctuation.
    .replace(/(?<!\d)[.,]|[.,](?!\d)/g, " ")
    .replace(/[^\p{L}\p{N}.,]+/gu, " ");
  // A run of digits with stray separators (`1,2,3`) is its numbers.
  return plain
    .split(" ")
    .flatMap((word) => (/[.,]/.test(word) && !digitWord.test(word) ? word.split(/[.,]/) : [word]))
    .filter((word) => word !== "");
}

function digitValue(word: string): number | undefined {
  const match = digitWord.exec(word);
  return match ? exactly(Number((match[1] as string).replace(/,/g, ""))) : undefined;
}

/** How a number value is written as a canonical word: its shortest decimal form. */
function numberWord(value: number): string {
  return String(Math.abs(value));
}

/** `and` continues a number after a hundred or a thousand (not `five and six`), when a unit or tens follows. */
function joinsNumber(next: string | undefined, current: number, total: number): boolean {
  if (next === undefined || (units[next] === undefined && tens[next] === undefined)) return false;
  return current % 100 === 0 && (current > 0 || total > 0);
}

/** A number with the binary noise of a scaled decimal (`1.1 * 1e6`) rounded away. */
function exactly(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * The number that starts at `words[from]`, and how many words it takes; undefined when none does.
 * Digits may be followed by scale words (`1.5 million`); number words combine as they are spoken
 * (`one hundred and twenty five thousand`), and a word that cannot continue the number ends it, so
 * `twenty twenty` is two numbers and `2019 twenty` is too.
 */
function numberAt(words: readonly string[], from: number): { value: number; length: number } | undefined {
  let total = 0;
  let current = 0;
  let length = 0;
  let started = false;
  const first = words[from] as string;
  const digits = digitValue(first);
  if (digits !== undefined) {
    current = digits;
    length = 1;
    started = true;
  } else if (first === "a" && words[from + 1] !== undefined && scales[words[from + 1] as string]) {
    current = 1;
    length = 1;
    started = true;
  }
  for (let i = from + length; i < words.length; i++) {
    const word = words[i] as string;
    const unit = units[word];
    const ten = tens[word];
    const scale = scales[word];
    if (digits === undefined && unit !== undefined) {
      // A unit continues only a number whose last places are still free: `twenty five`, not `five five`.
      if (unit >= 10 ? current % 100 !== 0 : current % 10 !== 0) break;
      current += unit;
    } else if (digits === undefined && ten !== undefined) {
      if (current % 100 !== 0) break;
      current += ten;
    } else if (scale !== undefined && started) {
      if (scale === 100) current = (current === 0 ? 1 : current) * 100;
      else {
        total += (current === 0 ? 1 : current) * scale;
        current = 0;
      }
    } else if (word === "and" && digits === undefined && joinsNumber(words[i + 1], current, total)) {
      // `one hundred and five`, `a thousand and twenty`: the `and` is part of the number.
    } else break;
    started = true;
    length = i - from + 1;
  }
  if (!started) return undefined;
  return { value: exactly(total + current), length: Math.max(length, 1) };
}

/** The canonical words of a text: numbers, in digits or in words, each become one word holding their value. */
export function canonicalWords(text: string): string[] {
  const words = rawWords(text);
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const number = numberAt(words, i);
    if (number === undefined) {
      out.push(words[i] as string);
      i++;
      continue;
    }
    out.push(numberWord(number.value));
    i += number.length;
  }
  return out;
}

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
    if (/^\d+(\.\d+)?$/.test(word)) numbers.add(Number(word));
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
