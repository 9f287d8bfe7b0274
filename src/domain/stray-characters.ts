// Whitespace and invisible characters in input that must be read exactly as sent (video references,
// webhook URLs), named so that a person can find and remove them.

/**
 * Whitespace (spaces, tabs, line breaks, no-break spaces) and invisible characters (controls, zero-width
 * and direction marks, byte-order marks): no id or URL holds one. The URL parser would drop them
 * silently (leading and trailing ones, and tabs and line breaks anywhere), so input carrying one is
 * refused rather than read as something other than what was sent.
 */
const strayCharacter = /[\s\p{C}]/u;

const strayNames: Record<string, string> = {
  " ": "a space",
  "\t": "a tab",
  "\n": "a line break (LF)",
  "\r": "a line break (CR)",
  "\u00a0": "a no-break space",
};

/** Whether `text` holds whitespace or an invisible character anywhere. */
export function hasStrayCharacter(text: string): boolean {
  return strayCharacter.test(text);
}

/**
 * The first stray character of `text` and where it is ("a tab at position 12", counting from 1), for a
 * message a person can act on; null when it has none.
 */
export function strayCharacterIn(text: string): string | null {
  const match = strayCharacter.exec(text);
  if (match === null) return null;
  const character = match[0];
  const code = (character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
  const name = strayNames[character] ?? `an invisible character (U+${code})`;
  return `${name} at position ${match.index + 1}`;
}
