import type { Database } from "./database";

/** Whether the database answers a query now (the status page and health checks). */
export async function databaseReachable(db: Database): Promise<boolean> {
  return db.sql.query("SELECT 1").then(
    () => true,
    () => false,
  );
}
