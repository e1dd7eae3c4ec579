import { createHmac } from "node:crypto";

import { recordAudit } from "../audit/audit-log";
import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { hashSecret, newSecretToken } from "../ids/secret-token";
import { hashPassword, verifyNothing, verifyPassword } from "../passwords/password-hash";
import { assertAcceptablePassword } from "../passwords/password-policy";
import { checkedEmail } from "../shared/email";
import { beginSignInAttempt, SignInThrottled } from "../sign-ins/sign-in-throttle";
import { STAFF_ROLES, type StaffRole } from "./staff-values";

/**
 * Staff of the admin console: accounts (scrypt hashes), server-side sessions (12 hours; the
 * cookie holds a random token, the database its hash) with a CSRF token derived from the
 * session's token (staffCsrfToken), never stored. Sign-ins are throttled per account and per
 * client address (sign-ins/sign-in-throttle.ts), and every failed or refused one is audited.
 * Roles: `admin` may do everything, `viewer` only read. Admins invite colleagues
 * (staff-invites.ts) and manage them (staff-members.ts).
 */
export const STAFF_SESSION_HOURS = 12;

export interface StaffMember {
  id: string;
  email: string;
  role: StaffRole;
  csrfToken: string;
}

/**
 * A session's CSRF token: an HMAC keyed by the session's own token, so it is never stored and
 * cannot be worked out from the stored hash. Not keyed by SECRET_KEY: whoever holds the session
 * token reads the CSRF token from staff.me anyway, and a new SECRET_KEY should not break the
 * mutations of every open session.
 */
function staffCsrfToken(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update("mga-staff-csrf").digest("base64url");
}

/** A staff email as stored: trimmed, lower-case; anything that is not an address is refused. */
export function normalizeStaffEmail(raw: string): string {
  return checkedEmail(raw);
}

export function assertStaffRole(role: string): asserts role is StaffRole {
  if (!(STAFF_ROLES as readonly string[]).includes(role))
    throw new AppError("invalid_request", "role: admin or viewer");
}

interface AccountRow {
  id: string;
  email: string;
  passwordHash: string;
  role: string;
  disabledAt: Date | null;
}

const ACCOUNT_COLUMNS = `id, email, password_hash AS "passwordHash", role, disabled_at AS "disabledAt"`;

export async function createStaff(
  db: Database,
  input: { email: string; password: string; role: StaffRole; actor: string },
): Promise<{ id: string; email: string; role: StaffRole }> {
  const email = normalizeStaffEmail(input.email);
  await assertAcceptablePassword(input.password);
  assertStaffRole(input.role);
  if ((await db.sql.query("SELECT 1 FROM staff_accounts WHERE email = $1", [email])).rowCount) {
    throw new AppError("invalid_request", `email: ${email} already has a staff account`);
  }
  const id = newId("stf");
  const passwordHash = await hashPassword(input.password);
  await withTransaction(db, async (tx) => {
    await tx.sql.query(
      "INSERT INTO staff_accounts (id, email, password_hash, role, created_at) VALUES ($1, $2, $3, $4, now())",
      [id, email, passwordHash, input.role],
    );
    await recordAudit(tx, {
      actor: input.actor,
      action: "staff.create",
      target: id,
      details: { email, role: input.role },
    });
  });
  return { id, email, role: input.role };
}

/**
 * `address` is the client's address (the console forwards its visitor's). The attempt counts
 * before the password is checked; wrong passwords and refusals are written to the audit log
 * (a refusal once, when the lock engages, so a locked-out flood cannot fill the log).
 */
export async function signInStaff(
  db: Database,
  input: { email: string; password: string; address: string },
  now = new Date(),
): Promise<{ sessionToken: string; expiresAt: Date; staff: StaffMember }> {
  const email = input.email.trim().toLowerCase();
  // The audit log names who tried, but what was typed for an email may be a password typed in
  // the wrong box: only something shaped like an address is written down.
  const who = /^[^@\s]{1,64}@[^@\s]{1,190}$/.test(email) ? email : "(not an email address)";
  const audit = (action: string, target: string, details: Record<string, unknown> = {}, on: Database = db) =>
    recordAudit(on, { actor: who, action, target, details: { address: input.address, ...details } });
  let attempt: Awaited<ReturnType<typeof beginSignInAttempt>>;
  try {
    attempt = await beginSignInAttempt(db, "staff", { account: email, address: input.address });
  } catch (error) {
    if (error instanceof SignInThrottled && error.refusal.first)
      await audit("staff.sign_in_locked", who, { by: error.refusal.by });
    throw error;
  }
  const account = (
    await db.sql.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM staff_accounts WHERE email = $1`, [email])
  ).rows[0];
  const ok = account ? await verifyPassword(input.password, account.passwordHash) : await verifyNothing(input.password);
  if (!account || !ok) {
    await audit("staff.sign_in_failed", account?.id ?? who);
    throw new AppError("unauthorized", "wrong email or password");
  }
  await attempt.succeeded();
  // Only someone who knows the password learns that the account is disabled.
  if (account.disabledAt) {
    await audit("staff.sign_in_refused", account.id, { reason: "disabled" });
    throw new AppError("forbidden", "this staff account is disabled; ask an admin");
  }
  const sessionToken = newSecretToken(32);
  const expiresAt = new Date(now.getTime() + STAFF_SESSION_HOURS * 3600_000);
  // The session and its audit row commit together.
  await withTransaction(db, async (tx) => {
    await tx.sql.query("UPDATE staff_accounts SET last_sign_in_at = $2 WHERE id = $1", [account.id, now]);
    await tx.sql.query(
      "INSERT INTO staff_sessions (id, staff_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
      [newId("sts"), account.id, hashSecret(sessionToken), now, expiresAt],
    );
    await audit("staff.sign_in", account.id, {}, tx);
  });
  return {
    sessionToken,
    expiresAt,
    staff: {
      id: account.id,
      email: account.email,
      role: account.role as StaffRole,
      csrfToken: staffCsrfToken(sessionToken),
    },
  };
}

export async function authenticateStaff(
  db: Database,
  sessionToken: string | undefined,
  now = new Date(),
): Promise<StaffMember> {
  if (!sessionToken) throw new AppError("unauthorized", "sign in first");
  const { rows: sessions } = await db.sql.query<{ staffId: string; expiresAt: Date; revokedAt: Date | null }>(
    `SELECT staff_id AS "staffId", expires_at AS "expiresAt", revoked_at AS "revokedAt" FROM staff_sessions WHERE token_hash = $1`,
    [hashSecret(sessionToken)],
  );
  const session = sessions[0];
  if (!session || session.revokedAt || session.expiresAt <= now)
    throw new AppError("unauthorized", "your session has ended; sign in again");
  const account = (
    await db.sql.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM staff_accounts WHERE id = $1`, [session.staffId])
  ).rows[0];
  if (!account || account.disabledAt) throw new AppError("unauthorized", "your session has ended; sign in again");
  return {
    id: account.id,
    email: account.email,
    role: account.role as StaffRole,
    csrfToken: staffCsrfToken(sessionToken),
  };
}

/** Ends the session, audited in the same transaction; a session already ended records nothing more. */
export async function signOutStaff(db: Database, sessionToken: string): Promise<void> {
  await withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<{ id: string; email: string }>(
      `UPDATE staff_sessions s SET revoked_at = $2 FROM staff_accounts a
       WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND a.id = s.staff_id RETURNING a.id, a.email`,
      [hashSecret(sessionToken), new Date()],
    );
    const staff = rows[0];
    if (staff) await recordAudit(tx, { actor: staff.email, action: "staff.sign_out", target: staff.id });
  });
}
