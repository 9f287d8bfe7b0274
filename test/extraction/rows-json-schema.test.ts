// The JSON schema and the prompt a model is sent: every column required, descriptions (in the prompt, once)
// where the template gives them.
import { describe, expect, it } from "vitest";
import type { SchemaDefinition } from "../../src/domain/schema-definition.js";
import {
  buildSystemPrompt,
  buildUserPrompt,
  formatTimestamp,
} from "../../src/extraction/extraction-prompt.js";
import {
  buildRowsJsonSchema,
  buildRowsResponseFormat,
  lineKeys,
} from "../../src/extraction/rows-json-schema.js";

const cell = { type: ["string", "number", "boolean", "null"] };

describe("the JSON schema of an answer", () => {
  it("asks for {rows: [{<columns>, first_line, last_line}]}: the listed columns and the lines, all required, nothing else", () => {
    const lineNumber = { type: "integer" };
    expect(buildRowsJsonSchema({ columns: ["product", "price"] })).toEqual({
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: {
            type: "object",
            properties: { product: cell, price: cell, first_line: lineNumber, last_line: lineNumber },
            required: ["product", "price", "first_line", "last_line"],
            additionalProperties: false,
          },
        },
      },
      required: ["rows"],
      additionalProperties: false,
    });
  });

  it("renames the line keys when a column has their name, so that every column stays a column", () => {
    const items = (buildRowsJsonSchema({ columns: ["row", "last_line"] }).properties as any).rows.items;
    expect(items.required).toEqual(["row", "last_line", "_first_line", "_last_line"]);
    expect(items.properties.last_line).toEqual(cell);
    expect(items.properties._last_line).toEqual({ type: "integer" });
    expect(lineKeys(["first_line", "_last_line", "__first_line", "x"])).toEqual({
      first: "___first_line",
      last: "___last_line",
    });
    expect(lineKeys(["product"])).toEqual({ first: "first_line", last: "last_line" });
    const prompt = buildSystemPrompt({ columns: ["first_line"] });
    expect(prompt).toContain("- first_line\n");
    expect(prompt).toContain("- _first_line, _last_line: its numbered lines");
  });

  it("carries a typed column's type, enum and nullable", () => {
    const definition: SchemaDefinition = {
      template: {
        price: { description: "The price", type: "number" },
        stars: { description: "The rating", type: "integer", enum: [1, 2, 3], nullable: true },
        size: { description: "The size", type: "string", enum: ["S", "L"], nullable: false },
        sold_out: { description: "Sold out?", type: "boolean", nullable: false },
        note: "Anything else",
      },
    };
    const items = (buildRowsJsonSchema(definition).properties as any).rows.items;
    expect(items.properties).toEqual({
      price: { type: ["number", "null"] },
      stars: { type: ["integer", "null"], enum: [1, 2, 3, null] },
      size: { type: "string", enum: ["S", "L"] },
      sold_out: { type: "boolean" },
      note: cell,
      first_line: { type: "integer" },
      last_line: { type: "integer" },
    });
    expect(items.required).toEqual(["price", "stars", "size", "sold_out", "note", "first_line", "last_line"]);
    const prompt = buildSystemPrompt(definition);
    expect(prompt).toContain("- stars (integer; one of: 1, 2, 3): The rating");
    expect(prompt).toContain('- size (string; one of: "S", "L"; always given): The size');
    expect(prompt).toContain("- note: Anything else");
  });

  it("is sent as strict structured output", () => {
    const format = buildRowsResponseFormat({ columns: ["a"] });
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it("keeps the template's order, and leaves the descriptions to the instructions, which say them once", () => {
    const template = { product: "The product's name", price: "Price in USD", note: "" };
    const schema = buildRowsJsonSchema({ template });
    const items = (schema as any).properties.rows.items;
    expect(Object.keys(items.properties)).toEqual(["product", "price", "note", "first_line", "last_line"]);
    expect(JSON.stringify(schema)).not.toContain("Price in USD");
    expect(buildSystemPrompt({ template })).toContain("- price: Price in USD");
    expect(items.required).toEqual(["product", "price", "note", "first_line", "last_line"]);
  });

  it("makes a column named __proto__ a property like any other, without touching prototypes", () => {
    const definition = JSON.parse(
      '{"template": {"__proto__": "odd but allowed", "name": "n"}}',
    ) as SchemaDefinition;
    const schema = buildRowsJsonSchema(definition);
    const properties = (schema as any).properties.rows.items.properties;
    expect(Object.hasOwn(properties, "__proto__")).toBe(true);
    expect(Object.keys(properties)).toEqual(["__proto__", "name", "first_line", "last_line"]);
    expect(JSON.parse(JSON.stringify(schema)).properties.rows.items.required).toEqual([
      "__proto__",
      "name",
      "first_line",
      "last_line",
    ]);
    expect(({} as any).description).toBeUndefined();
  });
});

describe("the prompt", () => {
  it("names every column in the instructions, with the template's descriptions", () => {
    const prompt = buildSystemPrompt({ template: { product: "The product's name", price: "Price in USD" } });
    expect(prompt).toContain("- product: The product's name");
    expect(prompt).toContain("- price: Price in USD");
    // A name that is not one word is quoted, so that where it ends is plain.
    expect(buildSystemPrompt({ columns: ["a b"] })).toContain('- "a b"\n');
    expect(buildSystemPrompt({ columns: ["price: usd"] })).toContain('- "price: usd"\n');
    expect(buildSystemPrompt({ columns: ["2nd"] })).toContain('- "2nd"\n');
  });

  it("asks for each row's first and last line by the numbers the transcript's lines start with", () => {
    const prompt = buildSystemPrompt({ columns: ["product"] });
    expect(prompt).toContain("- first_line, last_line: its numbered lines\n");
  });

  it("gives the transcript part with its place among the parts, each line numbered from 1, without time stamps", () => {
    const chunk = {
      index: 1,
      startMs: 61_000,
      endMs: 3_725_000,
      tokens: 20,
      cues: [
        { startMs: 61_000, endMs: 62_000, text: "hello" },
        { startMs: 3_720_000, endMs: 3_725_000, text: "bye" },
      ],
    };
    expect(buildUserPrompt(chunk, { chunkCount: 3, language: "en" })).toBe(
      "Transcript part 2/3, en:\n1 hello\n2 bye",
    );
    // A transcript in one part says no part, and one of unknown language no language.
    expect(buildUserPrompt({ ...chunk, index: 0 }, { chunkCount: 1 })).toBe("Transcript:\n1 hello\n2 bye");
  });

  it("formats time stamps as people quote them", () => {
    expect(formatTimestamp(0)).toBe("0:00");
    expect(formatTimestamp(59_999)).toBe("0:59");
    expect(formatTimestamp(600_000)).toBe("10:00");
    expect(formatTimestamp(3_600_000)).toBe("1:00:00");
  });
});
