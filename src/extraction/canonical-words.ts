// Reading a text into canonical words, the form in which `quote-matching.ts` compares a quote and a value:
// case, accents and punctuation gone, apostrophes joined, and every number, in digits or in words, one word
// holding its value. Each word can say which whitespace-separated token of the text it starts in, which is
// how a row's moment is found inside its lines.

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
export function exactly(value: number): number {
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

/** A text's whitespace-separated tokens, as a person counts its words. */
export function textTokens(text: string): string[] {
  return text.split(/\s+/).filter((token) => token !== "");
}

/** A canonical word, and which of the text's whitespace-separated tokens it starts in (from 0). */
export interface PlacedWord {
  readonly word: string;
  readonly token: number;
}

/**
 * The canonical words of a text, each with the token it starts in: numbers, in digits or in words, each
 * become one word holding their value. Read token by token, which reads as the whole text would: every
 * rule of `rawWords` looks within a token, whitespace always parting words.
 */
export function placedCanonicalWords(text: string): PlacedWord[] {
  const raw: PlacedWord[] = [];
  textTokens(text).forEach((token, index) => {
    for (const word of rawWords(token)) raw.push({ word, token: index });
  });
  const words = raw.map((placed) => placed.word);
  const out: PlacedWord[] = [];
  for (let i = 0; i < raw.length;) {
    const number = numberAt(words, i);
    const token = (raw[i] as PlacedWord).token;
    if (number === undefined) {
      out.push(raw[i] as PlacedWord);
      i++;
      continue;
    }
    out.push({ word: numberWord(number.value), token });
    i += number.length;
  }
  return out;
}

/** The canonical words of a text: numbers, in digits or in words, each become one word holding their value. */
export function canonicalWords(text: string): string[] {
  return placedCanonicalWords(text).map((placed) => placed.word);
}

/** The value of a canonical word that is a number. */
export function numberOf(word: string): number | undefined {
  return /^\d+(\.\d+)?$/.test(word) ? Number(word) : undefined;
}
