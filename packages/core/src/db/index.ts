// @mga/core/db: what the rest of the service may use of this area; everything else is internal.
export { connect } from "./connect";
export { openDatabase } from "./database";
export type { Database, OpenDatabaseOptions, Sql } from "./database";
export { poolUse } from "./transaction";
export { databaseReachable } from "./database-health";
export { startEmbeddedPostgres } from "./embedded-postgres";
export { startThrowawayPostgres, type ThrowawayPostgres } from "./throwaway-postgres";
export { freePort, freePorts } from "./free-port";
export { migrateDatabase, pendingMigrations } from "./migrate";
