import type { Database } from "../db/database";
import { newId } from "../ids/new-id";
import { decodeCursor, keysetDirection, keysetPage } from "../paging/cursor";
import { totalWhenAsked, type TotalOption } from "../paging/total";
import type { NotificationKind } from "../partners/ports/site-account-values";

/** The one INSERT of a notification (addToOutbox; password-setup links write theirs in the statement that makes the link). */
export const OUTBOX_INSERT =
  "INSERT INTO notification_outbox (id, site_account_id, kind, recipient, payload, created_at)";

/** Adds a notification the built-in site-account system would send; with a `tx`, it exists exactly when the change that sends it does. */
export async function addToOutbox(
  db: Database,
  input: { accountId: string; kind: NotificationKind; recipient: string; payload: Record<string, unknown> },
): Promise<void> {
  await db.sql.query(`${OUTBOX_INSERT} VALUES ($1, $2, $3, $4, $5, now())`, [
    newId("ntf"),
    input.accountId,
    input.kind,
    input.recipient,
    JSON.stringify(input.payload),
  ]);
}

export interface OutboxNotification {
  id: string;
  kind: string;
  recipient: string;
  createdAt: Date;
  used: boolean;
  /** Path (on the hosted chat's origin) of the page the link opens, token in its fragment; null once it cannot work. */
  linkPath: string | null;
}

/**
 * What the built-in site-account system would have emailed (password setup, email
 * verification), newest first. Staff read it to help a user who lost the email; partners never see it.
 * `email` matches a part of the recipient, any case; `total`, when asked, counts every match.
 */
export async function listOutbox(
  db: Database,
  input: { email?: string | undefined; limit: number; cursor?: string | undefined } & TotalOption,
): Promise<{
  notifications: OutboxNotification[];
  nextCursor: string | null;
  previousCursor: string | null;
  total?: number;
}> {
  const filters = { email: input.email?.trim().toLowerCase() || null };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "desc");
  const { rows } = await db.sql.query<{
    id: string;
    kind: string;
    recipient: string;
    payload: { link?: string };
    created_at: Date;
    used: boolean;
    live: boolean;
  }>(
    `SELECT n.id, n.kind, n.recipient, n.payload, n.created_at, t.used_at IS NOT NULL AS used,
            (n.kind <> 'password_setup' OR (t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > now())) AS live
     FROM notification_outbox n LEFT JOIN site_password_tokens t ON t.id = n.payload->>'token_id'
     WHERE ($1::text IS NULL OR strpos(lower(n.recipient), $1) > 0)
       AND ($2::timestamptz IS NULL OR (n.created_at, n.id) ${way.comparison} ($2::timestamptz, $3::text))
     ORDER BY n.created_at ${way.order}, n.id ${way.order} LIMIT $4`,
    [filters.email, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
  );
  const counted = await totalWhenAsked(
    db,
    input,
    "SELECT count(*)::int AS total FROM notification_outbox WHERE ($1::text IS NULL OR strpos(lower(recipient), $1) > 0)",
    [filters.email],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters, from);
  return {
    ...counted,
    previousCursor: page.previousCursor,
    notifications: page.rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      recipient: row.recipient,
      createdAt: row.created_at,
      used: row.used,
      // A link that can no longer work is not offered; a sealed one opens only with this server's key.
      linkPath: row.live && row.payload.link ? (db.secrets.open("notification-link", row.payload.link) ?? null) : null,
    })),
    nextCursor: page.nextCursor,
  };
}
