/**
 * What is wrong with a key's rate limit as typed (null: left empty, the service default), in
 * the words that say what would be right: 0 is "at least 1", not "a whole number".
 */
export function rateLimitProblem(value: number | null): string | undefined {
  if (value === null) return undefined;
  if (!Number.isInteger(value))
    return "Enter a whole number of requests per minute, or leave it empty for the service default.";
  if (value < 1) return "Enter at least 1 request per minute, or leave it empty for the service default.";
  return undefined;
}
