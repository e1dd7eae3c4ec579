import eslint from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * What every package lints with: ESLint's and typescript-eslint's recommended rules (not the
 * type-checked presets: they need a TypeScript program per package and made `turbo lint`
 * several times slower on our 2-core machines, see docs/decisions.md).
 */
export const baseConfig = defineConfig(
  // Build output, generated code and test artefacts are not ours to lint.
  {
    ignores: [
      "**/dist/**",
      "**/.next/**",
      "**/src/generated/**",
      "**/test-results/**",
      "**/coverage/**",
      "**/next-env.d.ts",
    ],
  },
  {
    files: ["**/*.{js,mjs,cjs,ts,mts,cts,tsx}"],
    extends: [eslint.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    // A disable comment that suppresses nothing fails the run: this is what keeps the
    // lint-fixtures honest (if a boundary rule stopped firing, their directives go unused).
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
);
