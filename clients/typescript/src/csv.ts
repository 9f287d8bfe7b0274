// CSV as every vidrows tool writes it (the CLI, the dashboard): RFC 4180 quoting, and no cell that a
// spreadsheet would run as a formula (contract §12, "CSV").

/** What a cell of a job's rows can hold; `null` and `undefined` are written as an empty field. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * A cell that a spreadsheet opening the file reads as a formula (or, for tab and CR, as the start of one
 * after it trims them) starts with one of these.
 */
const formulaStarts = new Set(["=", "+", "-", "@", "\t", "\r"]);

/**
 * A plain number: a number exactly as JSON writes one (`-12`, `-3.5`, `0`, `-1e+21`). Such a cell stays
 * as it is, so a negative number is still a number in the spreadsheet; every other text starting with a
 * formula character (`-1+2`, `+12`, `--1`, `-.5`, `-Infinity`) is neutralised. JSON is the yardstick
 * because that is how the API sends numbers, and a JSON number is never more than a number.
 */
const plainNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The text a spreadsheet shows for `text`: prefixed with `'` when it would otherwise start a formula. */
export function neutraliseFormula(text: string): string {
  const first = text.charAt(0);
  if (!formulaStarts.has(first) || plainNumber.test(text)) return text;
  return `'${text}`;
}

/**
 * One field: the value's text, neutralised, then quoted as RFC 4180 says when it holds `,`, `"`, CR or
 * LF (inner quotes doubled). The neutralising comes first so that the `'` is inside the quotes.
 */
export function csvField(value: CsvCell): string {
  const text = neutraliseFormula(value === null || value === undefined ? "" : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record; lines end in CRLF, as RFC 4180 says and spreadsheets expect. */
export function csvLine(values: readonly CsvCell[]): string {
  return values.map(csvField).join(",") + "\r\n";
}

/** A whole file: a header line of `columns`, then one line per record. */
export function csvText(columns: readonly string[], records: readonly (readonly CsvCell[])[]): string {
  return csvLine(columns) + records.map(csvLine).join("");
}
