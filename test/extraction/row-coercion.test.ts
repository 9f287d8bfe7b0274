// Rows as the model gives them, reduced to exactly the schema's columns; answers that are no rows at all.
import { describe, expect, it } from "vitest";
import { MalformedAnswerError, rowsFromCompletion } from "../../src/extraction/model-answer.js";
import { coerceCell, coerceRow, coerceRows } from "../../src/extraction/row-coercion.js";

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
    const rows = coerceRows(
      [{ a: null, b: null }, { other: 1 }, { a: "kept" }, { a: [], b: {} }],
      ["a", "b"],
    );
    expect(rows).toEqual([{ a: "kept", b: null }]);
  });
});

describe("reading a model's answer", () => {
  const columns = ["product", "price"];

  it("reads the rows of a good answer", () => {
    const rows = rowsFromCompletion(completion('{"rows": [{"product": "apple", "price": 3}]}'), columns);
    expect(rows).toEqual([{ product: "apple", price: 3 }]);
    expect(rowsFromCompletion(completion('{"rows": []}'), columns)).toEqual([]);
  });

  it("unwraps JSON in a Markdown fence, as models without structured output write it", () => {
    const rows = rowsFromCompletion(completion('```json\n{"rows": [{"product": "pear"}]}\n```'), columns);
    expect(rows).toEqual([{ product: "pear", price: null }]);
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
    expect(() => rowsFromCompletion(answer, columns)).toThrow(MalformedAnswerError);
  });
});
