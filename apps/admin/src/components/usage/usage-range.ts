import { param } from "@/lib/format";

/** The ranges the usage pages offer (days up to today, UTC); anything else in the URL is the default. */
export const USAGE_RANGES = [30, 90] as const;

export function usageDays(query: Record<string, string | string[] | undefined>): number {
  const asked = Number(param(query, "days"));
  return (USAGE_RANGES as readonly number[]).includes(asked) ? asked : 30;
}
