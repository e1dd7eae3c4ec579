/**
 * The words staff read for the API's technical values (statuses, blocking reasons, operation
 * types, error codes). Pages show these and keep the value itself in a title (hover), so what
 * the API says can still be quoted to an engineer. Defined once here: every page uses them.
 * Each table is typed by its value set (core's `as const` lists), so a value without words,
 * or words for a value that no longer exists, is a type error.
 */
import type {
  BlockingReason,
  ExperienceType,
  IdentityOrigin,
  ImportStatus,
  IntegrationStatus,
  KeyStatus,
  MappingStatus,
  MessageStatus,
  OperationStatus,
  OperationType,
  ProvisioningStatus,
  RowOutcome,
  StaffRole,
  StaffStatus,
  SyncStatus,
  TeamStatus,
  UserStatus,
  WebhookDeliveryStatus,
  WebhookEndpointStatus,
} from "@mga/api/closed-values";

export type ValueKind =
  | "status"
  | "provisioning"
  | "sync"
  | "mapping"
  | "identityOrigin"
  | "experience"
  | "blockingReason"
  | "operationType"
  | "operationStatus"
  | "importStatus"
  | "importOutcome"
  | "messageStatus"
  | "role"
  | "errorCode"
  | "webhookEndpoint"
  | "webhookDelivery";

type Words<Value extends string> = Record<Value, string>;

const WORDS = {
  // Users, integrations, keys, teams and staff accounts.
  status: {
    active: "Active",
    disabled: "Disabled",
    deleted: "Deleted",
    revoked: "Revoked",
    archived: "Archived",
  } satisfies Words<UserStatus | IntegrationStatus | KeyStatus | TeamStatus | StaffStatus>,
  provisioning: {
    pending: "Being set up",
    active: "Set up",
    failed: "Setup failed",
  } satisfies Words<ProvisioningStatus>,
  sync: { applied: "Up to date", pending: "Being updated", failed: "Update failed" } satisfies Words<SyncStatus>,
  mapping: {
    pending: "Being linked",
    mapped: "Linked",
    failed: "Linking failed",
    unmapped: "Not linked",
  } satisfies Words<MappingStatus>,
  identityOrigin: {
    existing_mg: "Existing account of the hosted product",
    partner_created: "Created by the partner",
  } satisfies Words<IdentityOrigin>,
  experience: {
    mg: "Hosted product experience",
    white_label: "White-label experience",
  } satisfies Words<ExperienceType>,
  blockingReason: {
    disabled: "the user is disabled",
    deleted: "the user is deleted",
    provisioning_pending: "setup has not finished",
    provisioning_failed: "setup failed",
    profile_sync_pending: "a profile change is still being applied",
    profile_sync_failed: "a profile change failed",
    wordpress_sync_pending: "the site account is still being updated",
    wordpress_sync_failed: "updating the site account failed",
    wordpress_unlinked: "no site account is linked",
    chat_identity_unlinked: "no chat identity is linked",
  } satisfies Words<BlockingReason>,
  operationType: {
    profile_change: "Profile change",
    deletion: "Deletion",
    reprovision: "Reprovision",
  } satisfies Words<OperationType>,
  operationStatus: {
    queued: "Queued",
    verification_pending: "Waiting for email verification",
    processing: "In progress",
    completed: "Completed",
    failed: "Failed",
    expired: "Expired",
    cancelled: "Cancelled",
  } satisfies Words<OperationStatus>,
  importStatus: {
    queued: "Queued",
    processing: "In progress",
    completed: "Completed",
    failed: "Failed",
  } satisfies Words<ImportStatus>,
  importOutcome: {
    created: "Created",
    existing: "Already existed",
    pending: "Being set up",
    failed: "Failed",
  } satisfies Words<RowOutcome>,
  messageStatus: { complete: "Complete", incomplete: "Incomplete" } satisfies Words<MessageStatus>,
  role: { admin: "Admin", viewer: "Viewer" } satisfies Words<StaffRole>,
  // Open: an operation's error code may be any code the service reports (unknown ones read as themselves).
  errorCode: {
    invalid_request: "Refused as invalid",
    unauthorized: "Not signed in or key not valid",
    forbidden: "Not allowed",
    not_found: "Not found",
    rate_limited: "Too many requests",
    idempotency_conflict: "Repeated request with different content",
    identity_conflict: "Conflicts with the user's current state",
    team_not_found: "Team not found",
    team_archived: "Team archived",
    team_in_use: "Team still has users",
    upstream_error: "The site-account system or chat service failed",
    internal_error: "Internal error",
    deletion_failed: "Deletion failed",
    reprovision_failed: "Reprovision failed",
    profile_change_failed: "Profile change failed",
  },
  webhookEndpoint: { enabled: "Enabled", disabled: "Disabled" } satisfies Words<WebhookEndpointStatus>,
  webhookDelivery: {
    pending: "Pending",
    succeeded: "Delivered",
    failed: "Failed",
  } satisfies Words<WebhookDeliveryStatus>,
} satisfies Record<ValueKind, Words<string>>;

/** Staff words for a value; an unknown value (a newer API) reads as itself, spaced and capitalised. */
export function describeValue(kind: ValueKind, value: string): string {
  return (WORDS[kind] as Words<string>)[value] ?? capitalise(value.replaceAll("_", " "));
}

/** Why a user cannot launch, as one sentence ("Blocked: the user is disabled; no site account is linked."). */
export function describeBlockingReasons(reasons: readonly string[]): string {
  return `Blocked: ${reasons.map((reason) => describeValue("blockingReason", reason)).join("; ")}.`;
}

export function capitalise(text: string): string {
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
}

/** A message as a sentence: a capital first and a full stop last. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed ? `${capitalise(trimmed)}${/[.!?]$/.test(trimmed) ? "" : "."}` : trimmed;
}

/**
 * The warning staff read before giving a user an address that already has a site account:
 * identity matching links the user to that account instead of creating one (docs/decisions.md,
 * "Console defects (issue 12)"). Counts only; nothing names who uses the account.
 */
/** Why an address is checked: a reprovision links the user to its account; an email change of the user's own account cannot take it. */
export type AccountCheckPurpose = "link" | "change";

export function describeExistingSiteAccount(
  found: { site_account_exists: boolean; other_integrations: number; hosted_product: boolean },
  purpose: AccountCheckPurpose,
): string | undefined {
  if (!found.site_account_exists) return undefined;
  const n = found.other_integrations;
  const users = [
    ...(n > 0 ? [`${n} other integration${n === 1 ? "" : "s"}`] : []),
    ...(found.hosted_product ? ["the hosted product"] : []),
  ];
  const used = users.length ? `, used by ${users.join(" and ")}` : "";
  return purpose === "link"
    ? `This address already has a site account${used}: the user will sign in with that account's password, and it is not created anew.`
    : `This address already has a site account${used}: the user's own account cannot take it, so this change would be refused. Ask the user for an address of their own.`;
}
