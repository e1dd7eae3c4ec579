import { AppError } from "../errors/app-error";

/** Every scope a key can hold (spec section 5 item 2). `embed:*` in the spec is shorthand, not a scope. */
export const SCOPES = [
  "chat:read",
  "chat:write",
  "sources:read",
  "embed:users:read",
  "embed:users:write",
  "embed:users:delete",
  "embed:teams:read",
  "embed:teams:write",
  "embed:launch",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Parses "a,b,c" (or a list); unknown or repeated scopes are an error, never silently dropped. */
export function parseScopes(input: string | readonly string[]): Scope[] {
  const items = (typeof input === "string" ? input.split(",") : [...input]).map((item) => item.trim()).filter(Boolean);
  if (items.length === 0)
    throw new AppError("invalid_request", `scopes: at least one scope is required (known: ${SCOPES.join(", ")})`);
  const unknown = items.filter((item) => !isScope(item));
  if (unknown.length)
    throw new AppError("invalid_request", `scopes: unknown scope ${unknown.join(", ")} (known: ${SCOPES.join(", ")})`);
  return [...new Set(items)] as Scope[];
}
