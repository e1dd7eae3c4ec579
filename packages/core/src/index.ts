// Domain logic of the service. No HTTP here: functions take plain inputs and return plain
// results or throw AppError; packages/api maps those to HTTP.
export * from "./db/connect";
export * from "./db/database";
export { migrateDatabase, findMigrationsDir } from "./db/migrate";
export { ensureDatabase, startEmbeddedPostgres, type EmbeddedDatabase } from "./db/embedded-postgres";
export * from "./errors/app-error";
export * from "./errors/zod-issues";
export * from "./ids/new-id";
export * from "./keys/api-keys";
export * from "./keys/authenticate-api-key";
export * from "./keys/key-secret";
export * from "./keys/scopes";
export * from "./orgs/organizations";
export * from "./sources/source-catalog";
export * from "./tenants/tenant-config";
export * from "./tenants/tenant-config.schema";
export * from "./conversations/append-messages";
export * from "./conversations/conversations";
export * from "./conversations/sanitize";
export * from "./conversations/send-message";
export * from "./conversations/source-selection";
export * from "./conversations/upstream/chat-upstream";
export * from "./conversations/upstream/http-chat-upstream";
export * from "./conversations/upstream/sse-parser";
export * from "./idempotency/idempotency-store";
export * from "./rate-limits/rate-limit";
