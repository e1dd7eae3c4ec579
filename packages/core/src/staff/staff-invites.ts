import { recordAudit } from "../audit/audit-log";
import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { hashSecret, newSecretToken } from "../ids/secret-token";
import { hashPassword } from "../passwords/password-hash";
import { assertAcceptablePassword } from "../passwords/password-policy";
import { beginSignInAttempt } from "../sign-ins/sign-in-throttle";
import { assertStaffRole, normalizeStaffEmail } from "./staff";
import type { StaffRole } from "./staff-values";

/**
 * Invitations: an admin invites a colleague by email and role; the console shows the link
 * once (its token is random, only the hash is kept). The colleague opens it, chooses a
 * password and has an account. A link works once, for 72 hours; a newer invitation for the
 * same email withdraws the older one, and an admin can withdraw one by hand. An invitation
 * carries its inviter's authority: disabling or demoting the inviter withdraws it
 * (withdrawInvitesBy), and it is accepted only while the inviter is still an active admin.
 */
export const STAFF_INVITE_HOURS = 72;

/** The inviter (staff_invites.invited_by, an email) is still an active admin. */
const INVITER_IS_ADMIN = `EXISTS (SELECT 1 FROM staff_accounts s WHERE s.email = staff_invites.invited_by AND s.role = 'admin' AND s.disabled_at IS NULL)`;

export interface StaffInvite {
  id: string;
  email: string;
  role: StaffRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

interface InviteRow {
  id: string;
  email: string;
  role: string;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  inviterIsAdmin: boolean;
}

const COLUMNS = `id, email, role, invited_by AS "invitedBy", created_at AS "createdAt", expires_at AS "expiresAt", accepted_at AS "acceptedAt", revoked_at AS "revokedAt", ${INVITER_IS_ADMIN} AS "inviterIsAdmin"`;

const toInvite = (row: InviteRow): StaffInvite => ({
  id: row.id,
  email: row.email,
  role: row.role as StaffRole,
  invitedBy: row.invitedBy,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

export async function inviteStaff(
  db: Database,
  input: { email: string; role: string; actor: string },
  now = new Date(),
): Promise<{ invite: StaffInvite; token: string }> {
  const email = normalizeStaffEmail(input.email);
  assertStaffRole(input.role);
  if ((await db.sql.query("SELECT 1 FROM staff_accounts WHERE email = $1", [email])).rowCount) {
    throw new AppError("invalid_request", `email: ${email} already has a staff account`);
  }
  const token = newSecretToken(32);
  const row = await withTransaction(db, async (tx) => {
    // One live link per email: the older one stops working when the new one exists.
    await tx.sql.query(
      "UPDATE staff_invites SET revoked_at = $2 WHERE email = $1 AND accepted_at IS NULL AND revoked_at IS NULL",
      [email, now],
    );
    const { rows } = await tx.sql.query<InviteRow>(
      `INSERT INTO staff_invites (id, email, role, token_hash, invited_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        newId("sti"),
        email,
        input.role,
        hashSecret(token),
        input.actor,
        now,
        new Date(now.getTime() + STAFF_INVITE_HOURS * 3600_000),
      ],
    );
    const created = rows[0] as InviteRow;
    await recordAudit(tx, {
      actor: input.actor,
      action: "staff.invite",
      target: created.id,
      details: { email, role: input.role },
    });
    return created;
  });
  return { invite: toInvite(row), token };
}

/** Invitations not yet used, withdrawn or expired, newest first. */
export async function listPendingInvites(db: Database, now = new Date()): Promise<StaffInvite[]> {
  const { rows } = await db.sql.query<InviteRow>(
    `SELECT ${COLUMNS} FROM staff_invites WHERE accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $1 ORDER BY created_at DESC`,
    [now],
  );
  return rows.map(toInvite);
}

export async function revokeStaffInvite(
  db: Database,
  input: { id: string; actor: string },
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const { rowCount } = await tx.sql.query(
      "UPDATE staff_invites SET revoked_at = $2 WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL",
      [input.id, now],
    );
    if (!rowCount) throw new AppError("not_found", "no pending invitation with this id");
    await recordAudit(tx, { actor: input.actor, action: "staff.invite_revoke", target: input.id });
  });
}

const WITHDRAWN = "this invitation was withdrawn; ask an admin for a new one";

/**
 * Withdraws the pending invitations an admin issued, in the transaction that disables or demotes
 * them: what they can no longer do, nobody can do on their word. Returns the ids withdrawn.
 */
export async function withdrawInvitesBy(tx: Database, inviterEmail: string, now: Date): Promise<string[]> {
  const { rows } = await tx.sql.query<{ id: string }>(
    "UPDATE staff_invites SET revoked_at = $2 WHERE invited_by = $1 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id",
    [inviterEmail, now],
  );
  return rows.map((row) => row.id);
}

/** Whom a link invites, for the page that accepts it; a link that no longer works says why. */
export async function describeStaffInvite(db: Database, token: string, now = new Date()): Promise<StaffInvite> {
  const { rows } = await db.sql.query<InviteRow>(`SELECT ${COLUMNS} FROM staff_invites WHERE token_hash = $1`, [
    hashSecret(token),
  ]);
  const row = rows[0];
  if (!row) throw new AppError("not_found", "this invitation link is not valid; ask an admin for a new one");
  if (row.acceptedAt) throw new AppError("not_found", "this invitation was already used; sign in instead");
  if (row.revokedAt || !row.inviterIsAdmin) throw new AppError("not_found", WITHDRAWN);
  if (row.expiresAt <= now) throw new AppError("not_found", "this invitation has expired; ask an admin for a new one");
  return toInvite(row);
}

/**
 * Uses the link: the account is created and the invitation marked used in one transaction,
 * and the conditional update lets only one of two simultaneous attempts through.
 */
export async function acceptStaffInvite(
  db: Database,
  input: { token: string; password: string; address: string },
  now = new Date(),
): Promise<{ id: string; email: string; role: StaffRole }> {
  // Throttled, and the token checked before anything costly (the password rule, the hash).
  const attempt = await beginSignInAttempt(db, "staff-invite", { address: input.address });
  const invite = await describeStaffInvite(db, input.token, now);
  await assertAcceptablePassword(input.password);
  await attempt.succeeded();
  const passwordHash = await hashPassword(input.password);
  const id = newId("stf");
  return withTransaction(db, async (tx) => {
    // The inviter's row is read FOR SHARE: a disable or demotion (which locks the admins' rows
    // FOR UPDATE) either commits first, and this finds no admin, or waits for this to commit.
    const inviter = await tx.sql.query(
      "SELECT 1 FROM staff_accounts WHERE email = $1 AND role = 'admin' AND disabled_at IS NULL FOR SHARE",
      [invite.invitedBy],
    );
    if (inviter.rowCount !== 1) throw new AppError("not_found", WITHDRAWN);
    const claimed = await tx.sql.query(
      `UPDATE staff_invites SET accepted_at = $2, staff_id = $3
       WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2`,
      [invite.id, now, id],
    );
    if (claimed.rowCount !== 1) throw new AppError("not_found", "this invitation was already used; sign in instead");
    const inserted = await tx.sql.query(
      `INSERT INTO staff_accounts (id, email, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING`,
      [id, invite.email, passwordHash, invite.role, now],
    );
    if (inserted.rowCount !== 1)
      throw new AppError("invalid_request", `email: ${invite.email} already has a staff account; sign in instead`);
    await recordAudit(tx, {
      actor: invite.email,
      action: "staff.invite_accept",
      target: id,
      details: { invite_id: invite.id, role: invite.role, invited_by: invite.invitedBy },
    });
    return { id, email: invite.email, role: invite.role };
  });
}
