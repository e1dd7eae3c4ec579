/** What every CLI command declares: its usage line, flags, and what it does. */
export type Flags = Record<string, string | boolean | string[] | undefined>;
type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

export interface Command {
  usage: string;
  summary: string;
  options: OptionSpec;
  required: string[];
  /** Printed to stderr after a human-readable (non --json) result. */
  note?: string;
  run(context: { db: import("@mga/core/db").Database; url: string }, flags: Flags): Promise<unknown>;
}

export const str = (flags: Flags, name: string) => String(flags[name]);
export const list = (flags: Flags, name: string) => (flags[name] as string[] | undefined) ?? [];
