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
