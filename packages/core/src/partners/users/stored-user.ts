import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";

/** The stored fields provisioning decides on. */
export interface StoredUser {
  id: string;
  email: string;
  name: string | null;
  team_id: string | null;
  status: string;
  provisioning_status: string;
  account_generation: number;
}

/** The columns of StoredUser, for queries that read them (here and in an import's chunks). */
export const STORED_USER_COLUMNS = "id, email, name, team_id, status, provisioning_status, account_generation";

/** A user gone meanwhile is a 404 (as Prisma's "not found" was). */
export async function readStoredUser(db: Database, integrationId: string, externalUserId: string): Promise<StoredUser> {
  const { rows } = await db.sql.query<StoredUser>(
    `SELECT ${STORED_USER_COLUMNS} FROM partner_users WHERE integration_id = $1 AND external_user_id = $2`,
    [integrationId, externalUserId],
  );
  if (!rows[0]) throw new AppError("not_found", "this record no longer exists");
  return rows[0];
}
