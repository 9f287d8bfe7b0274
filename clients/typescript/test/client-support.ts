// Helpers for the client's tests: a client for a test server's workspace, and the error a call ends in.
import { expect } from "vitest";
import { Vidrows, type VidrowsOptions } from "../src/index.js";
import { VidrowsError } from "../src/errors.js";

/** A client for `url` with `key`, polling and retrying quickly so that tests take moments. */
export function clientFor(url: string, key: string, options: Partial<VidrowsOptions> = {}): Vidrows {
  return new Vidrows({ apiKey: key, baseUrl: url, retryBaseDelayMs: 20, ...options });
}

/** The VidrowsError `call` rejects with; fails the test if it resolves or rejects with something else. */
export async function failure(call: Promise<unknown>): Promise<VidrowsError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(VidrowsError);
    return error as VidrowsError;
  }
  throw new Error("expected the call to fail, and it succeeded");
}

/** Asserts the error's code, status and (when given) param, and that the server's request id came with it. */
export async function expectApiError(
  call: Promise<unknown>,
  expected: { code: string; status: number; param?: string },
): Promise<VidrowsError> {
  const error = await failure(call);
  expect({ code: error.code, status: error.status }, error.message).toEqual({
    code: expected.code,
    status: expected.status,
  });
  if (expected.param !== undefined) expect(error.param).toBe(expected.param);
  expect(error.requestId).toMatch(/^req_/);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}
