import type { z } from "zod";

import { AppError } from "./app-error";

/** "field.path: problem" for the first few issues, so a 400 names what is wrong. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], prefix?: string): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const parts = [prefix, ...issue.path.map(String)].filter(Boolean);
      if (issue.code === "unrecognized_keys") {
        const keys = issue.keys.map((key) => [...parts, key].join("."));
        return `unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`;
      }
      const where = parts.length ? parts.join(".") : "body";
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}

/** Parses with a zod schema; failures become a 400 `invalid_request` naming the fields. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, prefix?: string): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError("invalid_request", describeIssues(result.error.issues, prefix));
  return result.data;
}
