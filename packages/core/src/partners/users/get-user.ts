import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import type { ResolvedIntegration } from "../integrations/integrations";
import { toPartnerUser, USER_COLUMNS, USER_FROM, type PartnerUserRecord, type UserRow } from "./partner-user";

export async function findPartnerUser(
  db: Database,
  integration: ResolvedIntegration,
  externalUserId: string,
): Promise<PartnerUserRecord | undefined> {
  const { rows } = await db.sql.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM ${USER_FROM}
     WHERE u.integration_id = $1 AND u.external_user_id = $2`,
    [integration.id, externalUserId],
  );
  return rows[0] ? toPartnerUser(integration.slug, rows[0]) : undefined;
}

export async function getPartnerUser(
  db: Database,
  integration: ResolvedIntegration,
  externalUserId: string,
): Promise<PartnerUserRecord> {
  const user = await findPartnerUser(db, integration, externalUserId);
  if (!user) throw new AppError("not_found", `user ${externalUserId} not found`);
  return user;
}
