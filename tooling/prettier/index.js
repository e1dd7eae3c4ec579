import { fileURLToPath } from "node:url";

// The plugin's path, not its name: Prettier resolves a name from the directory it runs in, where
// this package's dependencies are not installed.
const sortImports = fileURLToPath(import.meta.resolve("@ianvs/prettier-plugin-sort-imports"));

/**
 * Prettier's defaults (double quotes, semicolons, trailing commas everywhere), a line of 120
 * and imports in one order (docs/decisions.md, "Prettier").
 * @type {import("prettier").Config & import("@ianvs/prettier-plugin-sort-imports").PluginConfig}
 */
const config = {
  printWidth: 120,
  plugins: [sortImports],
  importOrder: ["<BUILTIN_MODULES>", "<THIRD_PARTY_MODULES>", "", "^@mga/(.*)$", "", "^[.]"],
  importOrderTypeScriptVersion: "5.0.0",
  overrides: [
    {
      // The pages' templates are served as written: a line break Prettier added inside a
      // paragraph (to wrap it, or around a tag) would become part of its text.
      files: "*.html",
      options: { htmlWhitespaceSensitivity: "strict", printWidth: 1000 },
    },
  ],
};

export default config;
