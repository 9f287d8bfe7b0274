// The webhook guard's lookup, which refuses names resolving inside the refused address classes.
import { describe, expect, it } from "vitest";
import { ForbiddenAddressError, guardedLookup } from "../../src/webhooks/address-guard.js";

/** guardedLookup as a promise: the addresses it hands the socket, or its error. */
function lookup(hostname: string, all: boolean): Promise<{ error: Error | null; address: unknown }> {
  return new Promise((resolve) => {
    guardedLookup(hostname, { all }, (error, address) => resolve({ error, address }));
  });
}

describe("guardedLookup", () => {
  it("refuses a name that resolves to a loopback address, before any connection", async () => {
    for (const all of [false, true]) {
      const { error } = await lookup("localhost", all);
      expect(error).toBeInstanceOf(ForbiddenAddressError);
      expect(error?.message).toMatch(
        /localhost resolves to (127\.0\.0\.1|::1), a private or reserved address/,
      );
    }
  });

  it("refuses IP literals that the resolver hands back as they are", async () => {
    for (const literal of ["127.0.0.1", "10.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      const { error } = await lookup(literal, false);
      expect(error, literal).toBeInstanceOf(ForbiddenAddressError);
    }
  });

  it("passes a public literal through in the form asked for", async () => {
    expect(await lookup("8.8.8.8", false)).toEqual({ error: null, address: "8.8.8.8" });
    expect(await lookup("8.8.8.8", true)).toEqual({
      error: null,
      address: [{ address: "8.8.8.8", family: 4 }],
    });
  });
});
