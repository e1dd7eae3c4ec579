/**
 * What every string of a request must be (a body's strings and keys at any depth, a path
 * segment, a query parameter): text PostgreSQL can store and UTF-8 can carry, so no NUL
 * character and no unpaired UTF-16 surrogate. The one input reader (apps/server,
 * request-input.ts) refuses anything else with `textFault`'s reason before any schema runs;
 * the OpenAPI document states the same rule as REQUEST_TEXT_PATTERN on every request string.
 */
export function textFault(
  text: string,
): "contains a NUL character" | "contains an unpaired UTF-16 surrogate" | undefined {
  if (text.includes("\u0000")) return "contains a NUL character";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate";
  return undefined;
}

// With the u flag a surrogate pair is read as one code point, so only an unpaired surrogate is
// one (String.prototype.isWellFormed, which the console's compiler target does not know).
const LONE_SURROGATE = /\p{Surrogate}/u;

// One character of such text: anything but NUL and a surrogate, or a surrogate pair. It reads
// the same with and without the `u` flag (a validator may compile a pattern either way): with
// it, a pair is one code point the first branch takes and a lone surrogate matches neither.
const CHARACTER = String.raw`(?:[^\u0000\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])`;
const NON_WHITESPACE = String.raw`(?:[^\s\u0000\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])`;

/** `textFault(text) === undefined`, as a JSON Schema pattern (packages/api/test/openapi/request-text.test.ts keeps the two equal). */
export const REQUEST_TEXT_PATTERN = `^${CHARACTER}*$`;

/**
 * Request text that is not blank. `\s` is exactly what String.prototype.trim removes (the
 * ECMAScript WhiteSpace and LineTerminator sets), so a name of `"\u00a0"` is blank too.
 */
export const NAME_PATTERN = String.raw`^\s*` + `${NON_WHITESPACE}${CHARACTER}*$`;
