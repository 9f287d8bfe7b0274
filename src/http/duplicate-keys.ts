// Finds a key given twice in one JSON object, which JSON.parse would settle silently by keeping the last.
import { paramFromPointer } from "./validation-errors.js";

interface Level {
  /** The keys met so far in an object; null for an array. */
  readonly keys: Set<string> | null;
  /** The object's current key, or the array's current index. */
  at: string | number;
  /** In an object: whether the next string is a key (just after `{` or `,`). */
  expectKey: boolean;
}

const quote = 0x22;
const backslash = 0x5c;

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    // A quote is escaped when an odd number of backslashes stands before it.
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === backslash) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function pointerOf(stack: readonly Level[]): string {
  return stack
    .slice(1)
    .map((level) => `/${String(level.at).replace(/~/g, "~0").replace(/\//g, "~1")}`)
    .join("");
}

/**
 * Where the first key given twice in one object sits, as a param (`schema.template.a`), or null.
 * `text` must already be known to be valid JSON (it is read after JSON.parse accepted it). Keys are
 * compared as the parser reads them, so `"a"` and `"\u0061"` are the same key. One pass, no recursion:
 * a deeply nested body cannot overflow the stack.
 */
export function findDuplicateKey(text: string): string | null {
  // A root level, so that the pointer of the path below is built from levels 1 and up.
  const stack: Level[] = [{ keys: null, at: "", expectKey: false }];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1] as Level;
      if (top.keys !== null && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.at = key;
        if (top.keys.has(key)) return paramFromPointer(pointerOf(stack));
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      stack.push({ keys: new Set(), at: "", expectKey: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ keys: null, at: 0, expectKey: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1] as Level;
      if (top.keys !== null) top.expectKey = true;
      else top.at = (top.at as number) + 1;
    }
  }
  return null;
}
