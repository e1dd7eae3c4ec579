import type { Scope } from "./scopes";

/** What each scope allows, in words for the people who create keys (the admin console). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "chat:read": "read conversations and their messages",
  "chat:write": "create conversations and send messages",
  "sources:read": "list the sources the key may select",
  "embed:users:read": "read partner users and their operations",
  "embed:users:write": "provision, disable, reactivate and change partner users; imports",
  "embed:users:delete": "delete partner users",
  "embed:teams:read": "read partner teams",
  "embed:teams:write": "create, rename and archive partner teams",
  "embed:launch": "issue single-use launch URLs (needs a launch binding)",
};

/** The key separation the spec recommends (section 5 item 5), as shown beside the scope picker. */
export const KEY_SEPARATION_ADVICE = [
  "One server-only key with the user and team scopes the integration needs.",
  "A separate server-only key with only embed:launch for launches, bound to one integration.",
  "A distinct key holding only embed:users:delete for deletions, where possible.",
  "Keys stay on the partner's servers: never in browser code, plugins or embed URLs.",
] as const;

/**
 * Scopes best held by a key of their own, with what to say when a key combines one with
 * others. Exported so the admin console can warn while scopes are being chosen, with the
 * same rule and words as the warning returned on creation.
 */
export const SOLO_SCOPES: ReadonlyArray<{ scope: Scope; warning: string }> = [
  { scope: "embed:launch", warning: "Keep embed:launch on a key of its own (a launch key)." },
  { scope: "embed:users:delete", warning: "Keep embed:users:delete on a key of its own (a deletion key)." },
];

/** Where a chosen set of scopes departs from that advice (a warning, not a refusal). */
export function keySeparationWarnings(scopes: readonly Scope[]): string[] {
  return SOLO_SCOPES.filter(({ scope }) => scopes.includes(scope) && scopes.some((other) => other !== scope)).map(
    ({ warning }) => warning,
  );
}
