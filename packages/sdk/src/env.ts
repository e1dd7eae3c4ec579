/** The environment variables the SDK reads, for the options a caller leaves out. */
export type EnvName = "MGA_API_KEY" | "MGA_BASE_URL" | "MGA_LOG";

/**
 * One environment variable, or undefined when it is unset or blank. Guarded by `typeof process`:
 * where there is no `process` (a bundle for another runtime) nothing is read and the options
 * must be passed.
 */
export function readEnv(name: EnvName): string | undefined {
  // eslint-disable-next-line no-restricted-properties -- the SDK's only read of the environment: partners configure it as OpenAI's client, with MGA_* variables (the server's env module is not theirs)
  const value = typeof process === "undefined" ? undefined : process.env?.[name];
  return value?.trim() || undefined;
}
