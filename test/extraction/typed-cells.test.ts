// Fitting a model's values to typed template columns: converted where nothing is lost, otherwise null and counted.
import { describe, expect, it } from "vitest";
import { columnSpecs } from "../../src/domain/schema-definition.js";
import { convertCell, fitRow } from "../../src/extraction/row-coercion.js";

describe("converting a value to a column's type", () => {
  it("reads plain decimal numbers for number and integer columns, and nothing else", () => {
    expect(convertCell("12", "number")).toBe(12);
    expect(convertCell(" -1.5e2 ", "number")).toBe(-150);
    expect(convertCell(12, "number")).toBe(12);
    expect(convertCell("twelve", "number")).toBeNull();
    expect(convertCell("$12", "number")).toBeNull();
    expect(convertCell("1,200", "number")).toBeNull();
    expect(convertCell(true, "number")).toBeNull();
    expect(convertCell("12.0", "integer")).toBe(12);
    expect(convertCell("12.5", "integer")).toBeNull();
    expect(convertCell(12.5, "integer")).toBeNull();
  });

  it("reads true and false for boolean columns, and writes scalars as text for string columns", () => {
    expect(convertCell("True", "boolean")).toBe(true);
    expect(convertCell("false", "boolean")).toBe(false);
    expect(convertCell("yes", "boolean")).toBeNull();
    expect(convertCell(1, "boolean")).toBeNull();
    expect(convertCell(12, "string")).toBe("12");
    expect(convertCell(false, "string")).toBe("false");
    expect(convertCell(null, "string")).toBeNull();
  });
});

describe("fitting rows to typed columns", () => {
  const specs = columnSpecs({
    template: {
      product: "The name",
      price: { description: "Price", type: "number" },
      size: { description: "Size", type: "string", enum: ["S", "L"] },
    },
  });

  it("converts, nulls what does not fit the type or the enum, counts the nulled, and empties no row silently", () => {
    expect(fitRow({ product: "apple", price: "12", size: "S" }, specs)).toEqual({
      row: { product: "apple", price: 12, size: "S" },
      nulledValues: 0,
    });
    expect(fitRow({ product: "pear", price: "twelve", size: "XL" }, specs)).toEqual({
      row: { product: "pear", price: null, size: null },
      nulledValues: 2,
    });
    expect(fitRow({ product: 3, price: null, size: "L" }, specs)).toEqual({
      row: { product: 3, price: null, size: "L" },
      nulledValues: 0,
    });
  });

  it("gives no row when fitting leaves nothing in any column, and still counts what it nulled", () => {
    expect(fitRow({ product: null, price: "free", size: null }, specs)).toEqual({
      row: null,
      nulledValues: 1,
    });
  });

  it("leaves the rows of untyped columns as they are", () => {
    const row = { product: "apple", price: "12" };
    const fitted = fitRow(row, columnSpecs({ columns: ["product", "price"] }));
    expect(fitted).toEqual({ row, nulledValues: 0 });
  });
});
