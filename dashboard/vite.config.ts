// Builds the dashboard into dist/, served by the API at /dashboard (see src/app/dashboard-files.ts).
import { defineConfig } from "vite";

export default defineConfig({
  base: "/dashboard/",
  // Preact's JSX runtime; the same settings are in tsconfig.json for the type checker.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The page runs under a CSP without 'unsafe-inline': no inlined assets, no inline scripts.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: "es2022",
  },
});
