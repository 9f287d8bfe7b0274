// Rows as the model gives them, reduced to exactly the schema's columns, with the lines it named for each;
// answers that are no rows at all.
import { describe, expect, it } from "vitest";
import { answeredRows, MalformedAnswerError } from "../../src/extraction/model-answer.js";
import { coerceCell, coerceRow } from "../../src/extraction/row-coercion.js";

function completion(content: string | null, extra: { finish_reason?: string; refusal?: string | null } = {}) {
  return {
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: extra.refusal ?? null },
        finish_reason: extra.finish_reason ?? "stop",
      },
    ],
  };
}

describe("coercing a row", () => {
  it("keeps exactly the schema's columns in the schema's order: missing ones null, extra ones dropped", () => {
    const row = coerceRow({ extra: 1, price: 3, product: "apple" }, ["product", "price", "in_stock"]);
    expect(Object.keys(row)).toEqual(["product", "price", "in_stock"]);
    expect(row).toEqual({ product: "apple", price: 3, in_stock: null });
  });

  it("keeps JSON scalars, writes structures as JSON, and makes the rest null", () => {
    expect(coerceCell("x")).toBe("x");
    expect(coerceCell("")).toBe("");
    expect(coerceCell(0)).toBe(0);
    expect(coerceCell(false)).toBe(false);
    expect(coerceCell(null)).toBeNull();
    expect(coerceCell(undefined)).toBeNull();
    expect(coerceCell(Number.NaN)).toBeNull();
    expect(coerceCell(Number.POSITIVE_INFINITY)).toBeNull();
    expect(coerceCell(["a", 1])).toBe('["a",1]');
    expect(coerceCell({ amount: 3, currency: "USD" })).toBe('{"amount":3,"currency":"USD"}');
    expect(coerceCell([])).toBeNull();
    expect(coerceCell({})).toBeNull();
  });

  it("treats columns named __proto__ and constructor as columns, polluting nothing", () => {
    const raw = JSON.parse('{"__proto__": {"polluted": true}, "name": "x"}');
    const row = coerceRow(raw, ["__proto__", "constructor", "name"]);
    expect(Object.keys(row)).toEqual(["__proto__", "constructor", "name"]);
    expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).toBe('{"polluted":true}');
    expect(row.constructor).toBeNull();
    expect(({} as any).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(row))).toEqual(
      JSON.parse('{"__proto__":"{\\"polluted\\":true}","constructor":null,"name":"x"}'),
    );
    // Missing, a __proto__ column is null rather than Object.prototype.
    const missing = coerceRow({ name: "y" }, ["__proto__", "name"]);
    expect(Object.getOwnPropertyDescriptor(missing, "__proto__")?.value).toBeNull();
  });

  it("drops rows with nothing in any column", () => {
    const items = [{ a: null, b: null }, { other: 1 }, { a: "kept" }, { a: [], b: {} }];
    const answered = answeredRows(completion(JSON.stringify({ rows: items })), ["a", "b"]);
    expect(answered.map((item) => item.row)).toEqual([{ a: "kept", b: null }]);
  });
});

describe("reading a model's answer", () => {
  const columns = ["product", "price"];

  const answerOf = (rows: unknown[]) => completion(JSON.stringify({ rows }));

  it("reads each row of a good answer with the lines the model named for it, unchecked", () => {
    const answered = answeredRows(
      answerOf([
        { product: "apple", price: 3, first_line: 2, last_line: 4 },
        { product: "pear", price: 1, first_line: -7, last_line: 1.5 },
      ]),
      columns,
    );
    expect(answered).toEqual([
      { row: { product: "apple", price: 3 }, firstLine: 2, lastLine: 4 },
      { row: { product: "pear", price: 1 }, firstLine: -7, lastLine: 1.5 },
    ]);
    expect(answeredRows(completion('{"rows": []}'), columns)).toEqual([]);
  });

  it("keeps a row's keys exactly the columns, reading the lines under the renamed keys when a column has their name", () => {
    const answered = answeredRows(
      answerOf([{ row: "r", first_line: "f", extra: 1, _first_line: 1, _last_line: 2, last_line: 9 }]),
      ["row", "first_line"],
    );
    expect(answered).toEqual([{ row: { row: "r", first_line: "f" }, firstLine: 1, lastLine: 2 }]);
    expect(Object.keys(answered[0]?.row ?? {})).toEqual(["row", "first_line"]);
  });

  it("reads a bare row, as a server that ignores structured output may answer, as a row without lines", () => {
    const answered = answeredRows(answerOf([{ product: "apple", price: 3 }]), columns);
    expect(answered).toEqual([
      { row: { product: "apple", price: 3 }, firstLine: undefined, lastLine: undefined },
    ]);
  });

  it("unwraps JSON in a Markdown fence, as models without structured output write it", () => {
    const answered = answeredRows(
      completion('```json\n{"rows": [{"product": "pear", "first_line": 1, "last_line": 2}]}\n```'),
      columns,
    );
    expect(answered).toEqual([{ row: { product: "pear", price: null }, firstLine: 1, lastLine: 2 }]);
  });

  it.each([
    ["no choices", { choices: [] }],
    ["not an object", "<html>bad gateway</html>"],
    ["empty content", completion("")],
    ["null content", completion(null)],
    ["not JSON", completion("Here are your rows: apple, 3")],
    ["cut off", completion('{"rows": [{"product": "app', { finish_reason: "length" })],
    ["a filter", completion('{"rows": []}', { finish_reason: "content_filter" })],
    ["a refusal", completion(null, { refusal: "I can't help with that." })],
    ["no rows key", completion('{"items": []}')],
    ["rows not a list", completion('{"rows": {"product": "apple"}}')],
    ["a bare list", completion('[{"product": "apple"}]')],
    ["a row that is not an object", completion('{"rows": [{"product": "apple"}, "pear"]}')],
  ])("calls an answer with %s malformed", (_, answer) => {
    expect(() => answeredRows(answer, columns)).toThrow(MalformedAnswerError);
  });
});
