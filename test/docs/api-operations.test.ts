// docs/api.md lists every operation of the served OpenAPI document, with its id, and nothing else: an
// operation added, renamed or removed without the guide changing fails here.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The rows of api.md's table of operations: `METHOD /path` and the operation id. */
function listedOperations(markdown: string): string[] {
  const section = /^### Every operation\n([\s\S]*?)(?=^#{1,3} )/m.exec(markdown)?.[1];
  if (section === undefined) throw new Error('docs/api.md has no "### Every operation" section.');
  return [...section.matchAll(/^\| `([A-Z]+ \/\S*)` +\| `(\w+)` +\|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe("docs/api.md's list of operations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("names every operation of the served document with its id, and no other", async () => {
    const document = (await server.call("GET", "/v1/openapi.json")).body;
    const served: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { operationId: string }>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (methods.includes(method)) served.push(`${method.toUpperCase()} ${path} ${operation.operationId}`);
      }
    }
    const listed = listedOperations(readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8"));
    expect(served.length).toBeGreaterThan(20);
    expect(new Set(listed).size, "an operation listed twice").toBe(listed.length);
    expect([...listed].sort()).toEqual([...served].sort());
  });
});
