import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Test workers start as child processes of this one, and Node reads NODE_EXTRA_CA_CERTS at start:
// setting it here lets every test trust the HTTPS webhook receivers' self-signed certificate.
process.env.NODE_EXTRA_CA_CERTS = fileURLToPath(new URL("./test/fixtures/tls/cert.pem", import.meta.url));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "clients/typescript/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real servers and child processes; two at a time suits a two-core machine. Suites that
    // wait for child processes or a worker's work take wider budgets for their tests and hooks:
    // useWorkBudgets() in test/support/time-budgets.ts.
    maxWorkers: 2,
  },
});
