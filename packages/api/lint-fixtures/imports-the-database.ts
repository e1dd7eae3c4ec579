// Lint fixture: breaks a rule on purpose, each line silenced by a directive that the lint run (reportUnusedDisableDirectives: error) fails on if the rule stops firing. Linted only: outside tsconfig's include, never built or run.
// The api package reaches the database only through @mga/core's domain functions.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: api may not import the Prisma client
export { PrismaClient } from "@prisma/client";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: api may not import pg
export { Pool } from "pg";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: api may not import core's generated client
export * from "../../core/src/generated/prisma/client";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: api may not reach past core's exports
export { AppError } from "../../core/src/errors/app-error";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: api may not import the apps
export * from "@mga/server";
// eslint-disable-next-line no-restricted-properties -- fixture: api may not run SQL on the Database it passes to core
export const runsSql = (db: { sql: { query(text: string): unknown } }) => db.sql.query("SELECT 1");
