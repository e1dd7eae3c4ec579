/**
 * `--field <path>`: the values a shell script captures (`KEY=$(pnpm cli key:create … --field key)`),
 * picked from the command's JSON result by dotted path (`aliases.0.slug`). Several paths print
 * tab-separated on one line, in the order asked, so `read -r ID KEY` can split them.
 */
export class MissingFieldError extends Error {}

export function pickFields(result: unknown, paths: readonly string[]): string {
  return paths.map((fieldPath) => formatValue(fieldPath, valueAt(result, fieldPath))).join("\t");
}

function valueAt(result: unknown, fieldPath: string): unknown {
  let value = result;
  for (const part of fieldPath.split(".")) {
    // Own properties only: a path never reaches a prototype's members (`constructor`, `length`…).
    value =
      value !== null && typeof value === "object" && Object.hasOwn(value, part)
        ? (value as Record<string, unknown>)[part]
        : undefined;
  }
  return value;
}

function formatValue(fieldPath: string, value: unknown): string {
  // A script capturing an empty value would go on with it: refuse instead.
  if (value === undefined) throw new MissingFieldError(`no field "${fieldPath}" in the result`);
  if (value === null) throw new MissingFieldError(`the field "${fieldPath}" is empty in the result`);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}
