/**
 * A response body or CLI output as parsed JSON. Tests probe it freely (`body.error.code`): an
 * assertion on the value is the check, so a type here would only restate what they assert.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one place tests opt out of typing parsed JSON
export type UntypedJson = any;
