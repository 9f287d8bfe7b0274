// The matching rules of a source's `unverified`: each rule with a value it lets through and one it flags.
import { describe, expect, it } from "vitest";
import type { ColumnSpec } from "../../src/domain/schema-definition.js";
import { canonicalWords } from "../../src/extraction/canonical-words.js";
import { quoteHolds, readQuote, unverifiedColumns } from "../../src/extraction/quote-matching.js";

const holds = (quote: string, value: string | number) => quoteHolds(readQuote(quote), value);

describe("the matching rules", () => {
  it.each<[string, string, string | number, string | number]>([
    // [rule, quote, a value it holds, a value it does not]
    ["case", "the ACME Kettle is back", "acme kettle", "acme toaster"],
    ["whitespace", "the  acme\n kettle", "acme   kettle", "acmekettle"],
    ["punctuation", "it's the Acme-Kettle, really!", "Acme kettle", "Acme kettles"],
    ["apostrophes join", "we went to mcdonalds", "McDonald's", "McDonald"],
    ["accents", "a small cafe in town", "Café", "cafeteria"],
    ["whole words only", "the kettle sold out", "kettle", "kett"],
    ["words in order", "red kettle and blue cup", "blue cup", "cup blue"],
    ["thousands separators", "it costs 1200 dollars", 1200, 1300],
    ["currency signs and separators", "it costs $1,200.00 today", 1200, 120],
    ["currency in a string value", "priced at 1200 euros", "€1,200", "€1,300"],
    ["decimals", "it weighs 3.50 kilos", 3.5, 35],
    ["number words", "i bought twelve of them", 12, 2],
    ["compound number words", "about twenty-five people", 25, 20],
    ["hundreds with and", "one hundred and five years", 105, 100],
    ["spoken hundreds", "it was twelve hundred dollars", 1200, 12],
    ["a thousand", "a thousand and twenty pages", 1020, 1000],
    ["scale after digits", "they raised $1.5 million", 1_500_000, 1.5],
    ["number words in a string value", "the twelve monkeys film", "12 Monkeys", "13 Monkeys"],
    ["numbers in both spellings", "call 911 now", "nine hundred eleven", "nine eleven"],
    ["ordinal endings", "on the 21st of may", 21, 22],
    ["percent", "up 20% this year", 20, 0.2],
    ["sign aside", "down five percent", -5, -6],
    ["unspaced scripts", "私は東京に行きました", "東京", "大阪"],
  ])("%s", (_rule, quote, held, flagged) => {
    expect(holds(quote, held)).toBe(true);
    expect(holds(quote, flagged)).toBe(false);
  });

  it("keeps separate spoken numbers apart", () => {
    expect(canonicalWords("twenty twenty")).toEqual(["20", "20"]);
    expect(canonicalWords("five and six")).toEqual(["5", "and", "6"]);
    expect(canonicalWords("in 2019 twenty people")).toEqual(["in", "2019", "20", "people"]);
    expect(canonicalWords("one hundred twenty five thousand")).toEqual(["125000"]);
  });

  it("has nothing to check in a value without words", () => {
    expect(holds("anything", "")).toBe(true);
    expect(holds("anything", " — ")).toBe(true);
  });
});

const spec = (name: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  name,
  description: undefined,
  type: undefined,
  enum: undefined,
  nullable: true,
  ...extra,
});

describe("unverified columns", () => {
  const specs = [
    spec("product"),
    spec("price", { type: "number" }),
    spec("in_stock", { type: "boolean" }),
    spec("size", { type: "string", enum: ["small", "large"] }),
    spec("note"),
  ];

  it("names the string and number columns the quote does not hold, in the schema's order", () => {
    const row = { product: "Kettle", price: 45, in_stock: true, size: "large", note: "blue" };
    expect(unverifiedColumns(row, specs, "the kettle costs forty-five dollars")).toEqual(["note"]);
    expect(unverifiedColumns(row, specs, "a cup")).toEqual(["product", "price", "note"]);
  });

  it("never checks booleans, enum columns or nulls", () => {
    const row = { product: null, price: null, in_stock: false, size: "small", note: true };
    expect(unverifiedColumns(row, specs, "nothing relevant")).toEqual([]);
  });
});
