import { recordAudit } from "../audit/audit-log";
import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { clearSignInLock, lockedUntil } from "../sign-ins/sign-in-throttle";
import { assertStaffRole, type StaffMember } from "./staff";
import { withdrawInvitesBy } from "./staff-invites";
import type { StaffRole, StaffStatus } from "./staff-values";

/**
 * Admins manage their colleagues: role changes and disabling (which ends the account's
 * sessions at once). Nobody changes their own account here, so the admin acting always
 * remains an admin: the console can never lose its last one.
 */
export interface StaffAccountView {
  id: string;
  email: string;
  role: StaffRole;
  status: StaffStatus;
  lockedUntil: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  email: string;
  role: string;
  disabled_at: Date | null;
  locked_until: Date | null;
  last_sign_in_at: Date | null;
  created_at: Date;
}

const toView = (row: AccountRow): StaffAccountView => ({
  id: row.id,
  email: row.email,
  role: row.role as StaffRole,
  status: row.disabled_at ? "disabled" : "active",
  lockedUntil: row.locked_until,
  lastSignInAt: row.last_sign_in_at,
  createdAt: row.created_at,
});

const COLUMNS = "id, email, role, disabled_at, last_sign_in_at, created_at";

/** Every account, with the end of a sign-in lockout where one stands. */
export async function listStaff(db: Database): Promise<StaffAccountView[]> {
  const { rows } = await db.sql.query<Omit<AccountRow, "locked_until">>(
    `SELECT ${COLUMNS} FROM staff_accounts ORDER BY email`,
  );
  return Promise.all(
    rows.map(async (row) => toView({ ...row, locked_until: await lockedUntil(db, "staff", row.email) })),
  );
}

export async function setStaffRole(
  db: Database,
  input: { id: string; role: string; actor: StaffMember },
): Promise<StaffAccountView> {
  const role = input.role;
  assertStaffRole(role);
  return changeColleague(db, input.id, input.actor, "change your own role", async (tx, before) => {
    if (before.role === role) return undefined;
    await tx.sql.query("UPDATE staff_accounts SET role = $2 WHERE id = $1", [before.id, role]);
    const withdrawn = role === "admin" ? [] : await withdrawInvitesBy(tx, before.email, new Date());
    return {
      action: "staff.role",
      details: { email: before.email, from: before.role, to: role, ...withdrawnDetails(withdrawn) },
    };
  });
}

export async function setStaffStatus(
  db: Database,
  input: { id: string; status: StaffStatus; actor: StaffMember },
  now = new Date(),
): Promise<StaffAccountView> {
  const view = await changeColleague(db, input.id, input.actor, "disable your own account", async (tx, before) => {
    const current = before.disabled_at ? "disabled" : "active";
    if (current === input.status) return undefined;
    if (input.status === "disabled") {
      await tx.sql.query("UPDATE staff_accounts SET disabled_at = $2 WHERE id = $1", [before.id, now]);
      await tx.sql.query("UPDATE staff_sessions SET revoked_at = $2 WHERE staff_id = $1 AND revoked_at IS NULL", [
        before.id,
        now,
      ]);
      const withdrawn = await withdrawInvitesBy(tx, before.email, now);
      return { action: "staff.disable", details: { email: before.email, ...withdrawnDetails(withdrawn) } };
    }
    await tx.sql.query("UPDATE staff_accounts SET disabled_at = NULL WHERE id = $1", [before.id]);
    return { action: "staff.enable", details: { email: before.email } };
  });
  // A fresh start: an old lockout does not outlive the re-enabling (once it has committed).
  if (input.status !== "active") return view;
  await clearSignInLock(db, "staff", view.email);
  return { ...view, lockedUntil: null };
}

/** The audit entry names the invitations a change withdrew, when there were any. */
const withdrawnDetails = (ids: string[]) => (ids.length ? { withdrawn_invites: ids } : {});

/**
 * One change to another staff account, in a transaction that first locks the active admins'
 * rows: two admins demoting each other at the same moment cannot leave none behind, because
 * the second finds it is no longer an admin itself.
 */
async function changeColleague(
  db: Database,
  id: string,
  actor: StaffMember,
  refusal: string,
  change: (
    tx: Database,
    before: AccountRow,
  ) => Promise<{ action: string; details: Record<string, unknown> } | undefined>,
): Promise<StaffAccountView> {
  if (id === actor.id) throw new AppError("invalid_request", `you cannot ${refusal}; ask another admin`);
  const row = await withTransaction(db, async (tx) => {
    const admins = await tx.sql.query<{ id: string }>(
      "SELECT id FROM staff_accounts WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id FOR UPDATE",
    );
    if (!admins.rows.some((row) => row.id === actor.id))
      throw new AppError("forbidden", "this action needs the admin role");
    const found = await tx.sql.query<AccountRow>(`SELECT ${COLUMNS} FROM staff_accounts WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    const before = found.rows[0];
    if (!before) throw new AppError("not_found", "no staff account with this id");
    const audit = await change(tx, before);
    if (audit) await recordAudit(tx, { actor: actor.email, action: audit.action, target: id, details: audit.details });
    const after = await tx.sql.query<Omit<AccountRow, "locked_until">>(
      `SELECT ${COLUMNS} FROM staff_accounts WHERE id = $1`,
      [id],
    );
    return after.rows[0] as Omit<AccountRow, "locked_until">;
  });
  return toView({ ...row, locked_until: await lockedUntil(db, "staff", row.email) });
}
