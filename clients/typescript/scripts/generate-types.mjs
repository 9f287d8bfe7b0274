// Writes src/generated/openapi.ts from the document a freshly built server serves (run: npm run generate).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderTypes } from "./render-types.mjs";

// The server as the root build leaves it in dist/; `npm run generate` builds it first.
const { createApp } = await import("../../../dist/app.js");
const { loadConfig } = await import("../../../dist/config.js");

const folder = mkdtempSync(join(tmpdir(), "vidrows-openapi-"));
try {
  // A throwaway SQLite file and a random port: the document does not depend on either.
  const config = loadConfig({ DATABASE_URL: join(folder, "vidrows.db"), PORT: "0", LOG_LEVEL: "silent" });
  const app = await createApp(config, { serve: true, work: false });
  const url = await app.start();
  try {
    const response = await fetch(`${url}/v1/openapi.json`);
    if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
    const target = new URL("../src/generated/openapi.ts", import.meta.url);
    writeFileSync(target, await renderTypes(await response.json()));
    console.log(`Wrote ${target.pathname}`);
  } finally {
    await app.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
