import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { hashSecret, newSecretToken } from "../../ids/secret-token";
import { hashPassword, verifyNothing, verifyPassword } from "../../passwords/password-hash";
import { assertAcceptablePassword } from "../../passwords/password-policy";
import { normalizeEmail } from "../../shared/email";
import { beginSignInAttempt } from "../../sign-ins/sign-in-throttle";

/**
 * Passwords of the built-in site-account system (the embedded default's site login).
 * Password-setup links carry a random token in their fragment; only its hash is stored, the
 * link itself is kept sealed in the outbox for staff. A link works once, for seven days, and
 * stops working when a newer one is sent or the account is locked or deleted. Every page that
 * checks a password or a token is throttled (sign-ins/sign-in-throttle.ts).
 */
export const PASSWORD_SETUP_DAYS = 7;

/** Every failed site sign-in says this, whatever failed: nothing tells a right password from a wrong one. */
export const SITE_SIGN_IN_FAILED = "wrong email or password, or this sign-in has expired; if it keeps failing, open the assistant again from your loan file";

/** Sends (to the outbox) a new password-setup link; older links of the account stop working. */
export async function issuePasswordSetup(db: Database, accountId: string): Promise<void> {
  const token = newSecretToken(24);
  await withTransaction(db, async (client) => {
    const { rows } = await client.query<{ email: string }>("SELECT email FROM site_accounts WHERE id = $1", [accountId]);
    if (!rows[0]) throw new AppError("not_found", `site account ${accountId} not found`);
    await revokeIn(client, accountId);
    const tokenId = newId("spt");
    await client.query(
      "INSERT INTO site_password_tokens (id, site_account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, now(), now() + make_interval(days => $4))",
      [tokenId, accountId, hashSecret(token), PASSWORD_SETUP_DAYS],
    );
    await client.query(
      "INSERT INTO notification_outbox (id, site_account_id, kind, recipient, payload, created_at) VALUES ($1, $2, 'password_setup', $3, $4, now())",
      [newId("ntf"), accountId, rows[0].email, JSON.stringify({ token_id: tokenId, link: db.secrets.seal("notification-link", `/site/password-setup#token=${token}`) })],
    );
  });
}

/** Outstanding password-setup links of the account stop working (lock, delete). */
export async function revokePasswordSetups(db: Database, accountId: string): Promise<void> {
  await revokeIn(db.pool, accountId);
}

async function revokeIn(client: { query: Database["pool"]["query"] }, accountId: string): Promise<void> {
  await client.query("UPDATE site_password_tokens SET revoked_at = now() WHERE site_account_id = $1 AND used_at IS NULL AND revoked_at IS NULL", [accountId]);
}

/** Sets a password from a password-setup link. `address` is the client's, for the throttle. */
export async function setPasswordFromSetupLink(db: Database, input: { token: string; password: string; address: string }): Promise<void> {
  const attempt = await beginSignInAttempt(db, "site-password-setup", { address: input.address });
  assertAcceptablePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const { rows } = await db.pool.query<{ site_account_id: string }>(
    `UPDATE site_password_tokens t SET used_at = now()
     FROM site_accounts a
     WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > now()
       AND a.id = t.site_account_id AND a.deleted_at IS NULL AND NOT a.locked
     RETURNING t.site_account_id`,
    [hashSecret(input.token)],
  );
  if (!rows[0]) throw new AppError("unauthorized", "this password link is invalid, expired or already used; ask for a new one");
  await db.pool.query("UPDATE site_accounts SET password_hash = $2 WHERE id = $1", [rows[0].site_account_id, passwordHash]);
  await attempt.succeeded();
}

/** The local site login: the account id when email and password match a usable account. */
export async function verifySiteLogin(db: Database, input: { email: string; password: string; address: string }): Promise<string> {
  const email = normalizeEmail(input.email);
  const attempt = await beginSignInAttempt(db, "site-login", { account: email, address: input.address });
  const account = await db.prisma.siteAccount.findUnique({ where: { email } });
  const ok = account?.passwordHash ? await verifyPassword(input.password, account.passwordHash) : await verifyNothing(input.password);
  if (!account || !ok || account.locked || account.deletedAt) throw new AppError("unauthorized", SITE_SIGN_IN_FAILED);
  await attempt.succeeded();
  return account.id;
}
