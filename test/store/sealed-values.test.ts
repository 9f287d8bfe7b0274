// Sealed values: what a job's data key seals only that key opens, and values from before keys read as they are.
import { describe, expect, it } from "vitest";
import { isSealed, newDataKey, openStored, seal, sealIfKeyed } from "../../src/store/sealed-values.js";

describe("sealed values", () => {
  const text = JSON.stringify([{ product: "blue kettle", price: 30, note: "ünïcødé ✓" }]);

  it("opens what it sealed, with the same key, and shows nothing of the text", () => {
    const key = newDataKey();
    const sealed = seal(key, text);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("kettle");
    expect(Buffer.from(sealed.slice(sealed.indexOf(":") + 1), "base64").includes("kettle")).toBe(false);
    expect(openStored(key, sealed)).toBe(text);
  });

  it("seals the same text differently each time (a fresh IV)", () => {
    const key = newDataKey();
    expect(seal(key, text)).not.toBe(seal(key, text));
  });

  it("refuses to open with another key, without a key, or after a change", () => {
    const key = newDataKey();
    const sealed = seal(key, text);
    expect(() => openStored(newDataKey(), sealed)).toThrow();
    expect(() => openStored(null, sealed)).toThrow(/data key is gone/);
    const packed = Buffer.from(sealed.slice("sealed1:".length), "base64");
    packed[packed.length - 1] = (packed[packed.length - 1] as number) ^ 1;
    expect(() => openStored(key, `sealed1:${packed.toString("base64")}`)).toThrow();
  });

  it("reads values stored before keys (and on SQLite) as they are, and seals only when there is a key", () => {
    expect(openStored(null, text)).toBe(text);
    expect(openStored(newDataKey(), "https://youtu.be/aqz-KE-bpKQ")).toBe("https://youtu.be/aqz-KE-bpKQ");
    expect(sealIfKeyed(null, text)).toBe(text);
    expect(isSealed(sealIfKeyed(newDataKey(), text))).toBe(true);
  });
});
