import type { Database } from "../../db/database";

export interface OutboxNotification {
  id: string;
  kind: string;
  recipient: string;
  createdAt: Date;
  used: boolean;
  /** Path (on the hosted chat's origin) of the password-setup page, for that kind only. */
  linkPath: string | null;
}

/**
 * What the built-in site-account system would have emailed (password setup, email
 * verification), newest first. Staff read it to help a user who lost the email; partners never see it.
 */
export async function listOutbox(db: Database, input: { email?: string | undefined; limit: number }): Promise<OutboxNotification[]> {
  const email = input.email?.trim().toLowerCase() || undefined;
  const rows = await db.prisma.notificationOutbox.findMany({
    where: email ? { recipient: email } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  return rows.map((row) => {
    const payload = row.payload as { token?: string; used?: boolean };
    return {
      id: row.id,
      kind: row.kind,
      recipient: row.recipient,
      createdAt: row.createdAt,
      used: payload.used === true,
      linkPath: row.kind === "password_setup" && payload.token ? `/site/password-setup?token=${encodeURIComponent(payload.token)}` : null,
    };
  });
}
