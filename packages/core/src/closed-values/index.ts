/**
 * Every closed value set (statuses, kinds, roles, reasons): each is one `as const` list in its
 * own area. Those stored in a column are enforced by a CHECK constraint of the same values
 * (test/db/closed-values.test.ts keeps the two equal). These files import nothing, so this
 * entry (`@mga/core/closed-values`) is safe to bundle into the console.
 */
export * from "../keys/key-status";
export * from "../partners/integrations/integration-status";
export * from "../partners/teams/team-status";
export * from "../partners/users/partner-user-values";
export * from "../partners/operations/operation-values";
export * from "../partners/imports/import-values";
export * from "../staff/staff-values";
export * from "../conversations/message-values";
export * from "../answers/answer-values";
export * from "../webhooks/event-values";
export * from "../idempotency/idempotency-values";
export * from "../partners/ports/site-account-values";
