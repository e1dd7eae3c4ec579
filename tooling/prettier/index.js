/**
 * Prettier's defaults (double quotes, semicolons, trailing commas everywhere) and a wide line:
 * of the widths tried (120 to 240) on the code as written, 200 changed the fewest lines
 * (docs/decisions.md has the measurements).
 * @type {import("prettier").Config}
 */
const config = {
  printWidth: 200,
};

export default config;
