// What an API key looks like, so that a mistyped or half-pasted key is told so before the server is asked
// (the server would answer only that the Authorization header carries no key).

const prefixes = ["vr_live_", "vr_test_"] as const;
const bodyLength = 32;
const shape = `an API key is vr_live_ or vr_test_ followed by ${bodyLength} letters and digits, ${
  prefixes[0].length + bodyLength
} characters in all, as it was shown once when it was created`;

/** What is wrong with the key's shape, for the person to fix; null when it looks like a key. */
export function keyShapeProblem(key: string): string | null {
  if (key === "") return "Enter an API key (vr_live_... or vr_test_...).";
  const prefix = prefixes.find((candidate) => key.startsWith(candidate));
  if (prefix === undefined) return `This is not an API key: ${shape}.`;
  const body = key.slice(prefix.length);
  if (/\s/.test(body)) return `This key has a space or line break inside; ${shape}.`;
  if (!/^[0-9A-Za-z]*$/.test(body)) {
    return `This key has a character other than a letter or digit after ${prefix}; ${shape}.`;
  }
  if (body.length !== bodyLength) {
    return `This key has ${body.length} characters after ${prefix}, not ${bodyLength}: ${shape}. Copy it whole.`;
  }
  return null;
}
