// Turns the served OpenAPI document into the TypeScript declarations the client is typed by.
import openapiTS, { astToString } from "openapi-typescript";

const header =
  "// Generated from the server's GET /v1/openapi.json by scripts/generate-types.mjs: do not edit.\n" +
  "// Regenerate with `npm run generate -w @vidrows/client`; test/generated-types.test.ts fails when stale.\n\n";

/**
 * The declarations for `document`, as committed in src/generated/openapi.ts. `--alphabetize` keeps the
 * output independent of the order the server registers routes in.
 * @param {Record<string, unknown>} document
 * @returns {Promise<string>}
 */
export async function renderTypes(document) {
  const ast = await openapiTS(/** @type {any} */ (document), { alphabetize: true });
  return header + astToString(ast);
}
