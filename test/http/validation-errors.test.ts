// JSON pointers from the validator turned into the `param` a client sees.
import { describe, expect, it } from "vitest";
import { paramFromPointer } from "../../src/http/validation-errors.js";

describe("paramFromPointer", () => {
  const cases: [string, string][] = [
    ["", ""],
    ["/name", "name"],
    ["/schema/columns", "schema.columns"],
    ["/schema/columns/3", "schema.columns[3]"],
    ["/videos/0", "videos[0]"],
    ["/videos/12", "videos[12]"],
    ["/schema/template/price", "schema.template.price"],
    ["/schema/template/unit price", "schema.template.unit price"],
    ["/a/0/b/1", "a[0].b[1]"],
    ["/0", "[0]"],
    // RFC 6901 escapes: ~1 is "/", ~0 is "~", and ~01 is "~1" (not "/").
    ["/schema/template/a~1b", "schema.template.a/b"],
    ["/schema/template/a~0b", "schema.template.a~b"],
    ["/schema/template/~01", "schema.template.~1"],
  ];
  for (const [pointer, param] of cases) {
    it(`turns ${JSON.stringify(pointer)} into ${JSON.stringify(param)}`, () => {
      expect(paramFromPointer(pointer)).toBe(param);
    });
  }
});
