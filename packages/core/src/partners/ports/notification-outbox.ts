import type { Database } from "../../db/database";
import { decodeCursor, keysetPage } from "../../paging/cursor";

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
export async function listOutbox(
  db: Database,
  input: { email?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<{ notifications: OutboxNotification[]; nextCursor: string | null }> {
  const filters = { email: input.email?.trim().toLowerCase() || null };
  const before = decodeCursor(db.secrets, input.cursor, filters);
  const { rows } = await db.pool.query<{ id: string; kind: string; recipient: string; payload: { token?: string; used?: boolean }; created_at: Date }>(
    `SELECT id, kind, recipient, payload, created_at FROM notification_outbox
     WHERE ($1::text IS NULL OR recipient = $1)
       AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
     ORDER BY created_at DESC, id DESC LIMIT $4`,
    [filters.email, before?.createdAt ?? null, before?.id ?? "", input.limit + 1],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters);
  return {
    notifications: page.rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      recipient: row.recipient,
      createdAt: row.created_at,
      used: row.payload.used === true,
      linkPath: row.kind === "password_setup" && row.payload.token ? `/site/password-setup?token=${encodeURIComponent(row.payload.token)}` : null,
    })),
    nextCursor: page.nextCursor,
  };
}
