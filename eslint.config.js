// Lint rules: ESLint's and typescript-eslint's recommended sets, type-aware for the source.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "dist-bench/", "node_modules/", "bench/results/", "coverage/"] },
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
    files: ["test/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
