// A model that reads perfectly: it finds every fact a pattern describes in a prompt's numbered lines,
// across line breaks too, and answers each as a row with the exact numbers of the lines it is said on.
import {
  type FakeModelBehaviour,
  type FakeModelRequest,
  promptLines,
  spannedRowsReply,
} from "./fake-model.js";

/**
 * A behaviour answering one row per match of `pattern` (global; whitespace in it should be `\s+`, so that
 * a fact said over two lines is found) in the lines of each request: `toRow` makes the match a row, and
 * its lines are the one where the match starts and the one where it ends.
 */
export function exactReader(
  pattern: RegExp,
  toRow: (match: RegExpMatchArray) => Record<string, unknown>,
): FakeModelBehaviour {
  return (request: FakeModelRequest) => {
    const text = promptLines(request)
      .map((line) => line.text)
      .join("\n");
    const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
    const items = [...text.matchAll(pattern)].map((match) => ({
      row: toRow(match),
      first_line: lineAt(match.index),
      last_line: lineAt(match.index + match[0].length - 1),
    }));
    return spannedRowsReply(items);
  };
}
