import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";

/** The contact details partners never read back (spec 2.9), shown to staff for support. */
export async function getPartnerUserContact(
  db: Database,
  userId: string,
): Promise<{ email: string; name: string | null }> {
  const { rows } = await db.sql.query<{ email: string; name: string | null }>(
    "SELECT email, name FROM partner_users WHERE id = $1",
    [userId],
  );
  if (!rows[0]) throw new AppError("not_found", `user ${userId} not found`);
  return rows[0];
}
