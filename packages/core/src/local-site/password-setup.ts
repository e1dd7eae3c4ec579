import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { hashSecret, newSecretToken } from "../ids/secret-token";
import { hashPassword } from "../passwords/password-hash";
import { assertAcceptablePassword } from "../passwords/password-policy";
import { normalizeEmail } from "../shared/email";
import { beginSignInAttempt } from "../sign-ins/sign-in-throttle";
import { OUTBOX_INSERT } from "./outbox";

/**
 * Password-setup links of the built-in site-account system. A link carries a random token in
 * its fragment; only the token's hash is stored, the link itself is kept sealed in the outbox
 * for staff. A link works once, for seven days, and stops working when a newer one is sent or
 * the account is locked, has its password reset, or is deleted. The page is throttled per
 * client address, and the token is checked before anything costly (the password rule, the hash).
 */
export const PASSWORD_SETUP_DAYS = 7;

const INVALID_LINK = "this password link is invalid, expired or already used; ask for a new one";

/**
 * Sends (to the outbox) a new password-setup link. Older links of the account stop working,
 * except for a self-service request (`keepEarlier`): anyone may type an address into "Set or
 * reset your password", so that request must not be able to cancel a link the user was sent.
 * Whichever link is used first sets the password and withdraws the others.
 */
export async function issuePasswordSetup(
  db: Database,
  accountId: string,
  options: { keepEarlier?: boolean } = {},
): Promise<void> {
  const issued = await issuePasswordSetups(db, [accountId], options);
  if (!issued.has(accountId)) throw new AppError("not_found", `site account ${accountId} not found`);
}

/**
 * issuePasswordSetup for several accounts in one statement (an import's chunk): the older
 * links' revocation, the new links and their notifications are written together or not at
 * all, since a link nobody was sent, or a notification whose link does not work, is useless.
 * Returns the accounts that got a link (an unknown account gets none).
 */
export async function issuePasswordSetups(
  db: Database,
  accountIds: string[],
  options: { keepEarlier?: boolean } = {},
): Promise<Set<string>> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Set();
  const tokens = ids.map(() => newSecretToken(24));
  const tokenIds = ids.map(() => newId("spt"));
  const { rows } = await db.sql.query<{ site_account_id: string }>(
    `WITH wanted AS (
       SELECT w.account_id, w.token_id, w.token_hash, w.notification_id, w.link, a.email
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS w(account_id, token_id, token_hash, notification_id, link)
       JOIN site_accounts a ON a.id = w.account_id
     ), revoked AS (
       UPDATE site_password_tokens SET revoked_at = now()
       WHERE NOT $6 AND site_account_id IN (SELECT account_id FROM wanted) AND used_at IS NULL AND revoked_at IS NULL
     ), tokens AS (
       INSERT INTO site_password_tokens (id, site_account_id, token_hash, created_at, expires_at)
       SELECT token_id, account_id, token_hash, now(), now() + make_interval(days => $7) FROM wanted
     )
     ${OUTBOX_INSERT}
     SELECT notification_id, account_id, 'password_setup', email, jsonb_build_object('token_id', token_id, 'link', link), now() FROM wanted
     RETURNING site_account_id`,
    [
      ids,
      tokenIds,
      tokens.map((token) => hashSecret(token)),
      ids.map(() => newId("ntf")),
      tokens.map((token) => db.secrets.seal("notification-link", `/site/password-setup#token=${token}`)),
      options.keepEarlier === true,
      PASSWORD_SETUP_DAYS,
    ],
  );
  return new Set(rows.map((row) => row.site_account_id));
}

/** Outstanding password-setup links of the account stop working (lock, password reset, delete). */
export async function revokePasswordSetups(db: Database, accountId: string): Promise<void> {
  await db.sql.query(
    "UPDATE site_password_tokens SET revoked_at = now() WHERE site_account_id = $1 AND used_at IS NULL AND revoked_at IS NULL",
    [accountId],
  );
}

/** A usable token's row: unused, unrevoked, unexpired, of a live unlocked account. */
const LIVE_TOKEN = `site_password_tokens t JOIN site_accounts a ON a.id = t.site_account_id
  WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > now() AND a.deleted_at IS NULL AND NOT a.locked`;

/** Sets a password from a password-setup link. `address` is the client's, for the throttle. */
export async function setPasswordFromSetupLink(
  db: Database,
  input: { token: string; password: string; address: string },
): Promise<void> {
  const attempt = await beginSignInAttempt(db, "site-password-setup", { address: input.address });
  const tokenHash = hashSecret(input.token);
  const found = await db.sql.query(`SELECT 1 FROM ${LIVE_TOKEN}`, [tokenHash]);
  if (found.rowCount !== 1) throw new AppError("unauthorized", INVALID_LINK);
  await assertAcceptablePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  // The link is used and the password set together, or neither.
  await withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<{ site_account_id: string }>(
      `UPDATE site_password_tokens SET used_at = now() WHERE id = (SELECT t.id FROM ${LIVE_TOKEN} FOR UPDATE OF t) RETURNING site_account_id`,
      [tokenHash],
    );
    if (!rows[0]) throw new AppError("unauthorized", INVALID_LINK);
    await tx.sql.query("UPDATE site_accounts SET password_hash = $2 WHERE id = $1", [
      rows[0].site_account_id,
      passwordHash,
    ]);
    await revokePasswordSetups(tx, rows[0].site_account_id);
  });
  await attempt.succeeded();
}

/**
 * Whether a password-setup link still works, without using it: the page says that a used or
 * expired link is dead before anyone types a password. Throttled like the form; a live link
 * gives its point back.
 */
export async function isPasswordSetupLinkUsable(
  db: Database,
  input: { token: string; address: string },
): Promise<boolean> {
  const attempt = await beginSignInAttempt(db, "site-password-setup", { address: input.address });
  const found = await db.sql.query(`SELECT 1 FROM ${LIVE_TOKEN}`, [hashSecret(input.token)]);
  if (found.rowCount !== 1) return false;
  await attempt.succeeded();
  return true;
}

/**
 * "Set or reset your password" of the site login: sends a new password-setup link to the
 * address when a live, unlocked account has it. The caller answers the same either way, so
 * the form never tells which addresses have accounts; throttled per address and per email.
 * The current password keeps working until the link is used.
 */
export async function requestPasswordSetup(db: Database, input: { email: string; address: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  await beginSignInAttempt(db, "site-password-reset", { account: email, address: input.address });
  const { rows } = await db.sql.query<{ id: string; locked: boolean; deleted_at: Date | null }>(
    "SELECT id, locked, deleted_at FROM site_accounts WHERE email = $1",
    [email],
  );
  const account = rows[0];
  if (account && !account.locked && !account.deleted_at)
    await issuePasswordSetup(db, account.id, { keepEarlier: true });
}
