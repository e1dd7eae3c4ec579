/**
 * The audit log in words: what each action did, its details as labelled fields and the page
 * of its target. The action's code stays beside the words (staff filter by it).
 */
const ACTIONS: Record<string, string> = {
  "organization.create": "Created the organization",
  "organization.rename": "Renamed the organization",
  "organization.delete": "Deleted the organization",
  "tenant.configure": "Saved the tenant configuration",
  "integration.create": "Created the integration",
  "integration.disable": "Disabled the integration",
  "integration.enable": "Enabled the integration",
  "integration.alias_add": "Added an alias",
  "integration.alias_remove": "Removed an alias",
  "integration.alias_grant": "Granted an alias to a key",
  "integration.alias_revoke": "Withdrew an alias from a key",
  "integration.chat_answer_limit": "Changed the chat answers per user",
  "key.create": "Created the API key",
  "key.revoke": "Revoked the API key",
  "key.update": "Edited the API key",
  "key.roll": "Rolled the API key",
  "key.rate_limit": "Changed the key's rate limit",
  "key.launch_bind": "Bound the key's launches",
  "key.launch_unbind": "Disabled the key's launch binding",
  "partner_user.disable": "Disabled the user",
  "partner_user.reactivate": "Reactivated the user",
  "partner_user.delete": "Started the user's deletion",
  "partner_user.reprovision": "Started the user's reprovisioning",
  "partner_user.profile_override": "Overrode the user's profile",
  "partner_user.create": "Added the user",
  "partner_import.create": "Started an import from a CSV file",
  "staff.create": "Created a staff account",
  "staff.invite": "Invited a colleague",
  "staff.invite_revoke": "Withdrew an invitation",
  "staff.invite_accept": "Joined through an invitation",
  "staff.role": "Changed a colleague's role",
  "staff.disable": "Disabled a colleague's account",
  "staff.enable": "Enabled a colleague's account",
  "staff.sign_in": "Signed in",
  "staff.sign_out": "Signed out",
  "staff.sign_in_failed": "Sign-in failed: wrong email or password",
  "staff.sign_in_locked": "Sign-in locked after repeated failures",
  "staff.sign_in_refused": "Sign-in refused: the account is disabled",
};

/** Unknown actions (a newer API) fall back to their code, made readable. */
export function describeAction(action: string): string {
  const known = ACTIONS[action];
  if (known) return known;
  const text = action.replace(/[._]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "operation_id" → "Operation id". */
export function detailLabel(key: string): string {
  const text = key.replace(/_+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A change recorded as `{ from, to }` (an override's email or name) reads "old → new". */
function isChange(value: object): value is { from: unknown; to: unknown } {
  const keys = Object.keys(value).sort();
  return keys.length === 2 && keys[0] === "from" && keys[1] === "to";
}

export function detailValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.length ? value.map(detailValue).join(", ") : "none";
  if (typeof value === "object")
    return isChange(value) ? `${detailValue(value.from)} → ${detailValue(value.to)}` : JSON.stringify(value);
  return String(value);
}

/** Details the entry shows elsewhere: the integration is the target's link and organization. */
const SHOWN_ELSEWHERE = new Set(["integration_id"]);

export interface DetailEntry {
  key: string;
  label: string;
  value: string;
}

export function detailEntries(details: unknown): DetailEntry[] {
  if (!details || typeof details !== "object" || Array.isArray(details)) return [];
  // Sorted by label: the database keeps JSON keys in an order of its own.
  return Object.entries(details as Record<string, unknown>)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]): DetailEntry => ({ key, label: detailLabel(key), value: detailValue(value) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The integration an entry's details name (staff actions on partner users record it). */
export function detailIntegrationId(details: unknown): string | undefined {
  const value =
    details && typeof details === "object" ? (details as Record<string, unknown>).integration_id : undefined;
  return typeof value === "string" && /^int_[A-Za-z0-9_]+$/.test(value) ? value : undefined;
}

/** Where a lifecycle operation is shown: its row on the user's page, or the search that finds it by id. */
export function operationHref(action: string, target: string, details: unknown, operationId: string): string {
  const integrationId = detailIntegrationId(details);
  const externalId = target.slice(target.indexOf("/") + 1);
  if (integrationId && action.startsWith("partner_user.") && externalId)
    return `/integrations/${integrationId}/users/${encodeURIComponent(externalId)}#${operationId}`;
  return `/search?q=${encodeURIComponent(operationId)}`;
}

/**
 * The console page of an entry's target, when it has one: ids name their page by prefix;
 * partner users are audited as "integration/external id", their page found by the
 * integration id the details record (older entries: by the search); staff targets (accounts,
 * invitations, sign-in attempts) are on the Staff page.
 */
export function targetHref(action: string, target: string, details?: unknown): string | undefined {
  if (action === "organization.delete") return undefined;
  const integrationId = detailIntegrationId(details);
  if (/^imp_[A-Za-z0-9_]+$/.test(target) && integrationId) return `/integrations/${integrationId}/imports/${target}`;
  if (/^org_[A-Za-z0-9_]+$/.test(target)) return `/organizations/${target}`;
  if (/^int_[A-Za-z0-9_]+$/.test(target)) return `/integrations/${target}`;
  if (/^key_[A-Za-z0-9_]+$/.test(target)) return `/keys/${target}`;
  if (action.startsWith("partner_user.")) {
    const externalId = target.slice(target.indexOf("/") + 1);
    if (!externalId) return undefined;
    return integrationId
      ? `/integrations/${integrationId}/users/${encodeURIComponent(externalId)}`
      : `/search?q=${encodeURIComponent(externalId)}`;
  }
  if (action.startsWith("staff.")) return "/staff";
  return undefined;
}
