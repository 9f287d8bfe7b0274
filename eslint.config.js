// Lint rules: ESLint's and typescript-eslint's recommended sets, type-aware for the source.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "dist-bench/",
      "node_modules/",
      "bench/results/",
      "coverage/",
      "clients/typescript/dist/",
      "clients/typescript/src/generated/",
      "dashboard/dist/",
      "test-output/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Tests read answers of many shapes; `any` there keeps assertions readable.
    files: ["test/**", "bench/**", "clients/typescript/test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The client's scripts are plain Node ESM (they run before anything is built).
    files: ["clients/typescript/scripts/**/*.mjs"],
    languageOptions: { globals: { console: "readonly", fetch: "readonly", URL: "readonly" } },
  },
  {
    // The checkout's launcher and build scripts: plain Node ESM, run before anything is built.
    files: ["bin/**/*.mjs", "scripts/**/*.mjs", "clients/typescript/bin/*.js"],
    languageOptions: { globals: { process: "readonly", URL: "readonly" } },
  },
);
