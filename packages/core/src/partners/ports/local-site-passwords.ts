import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import { normalizeEmail } from "../../shared/email";

/**
 * Passwords of the built-in site-account system (the embedded default's site login).
 * scrypt (memory-hard; N=2^15, r=8, p=1, 64-byte key, 16-byte salt), stored as
 * `scrypt$N$r$p$salt$hash`. Password-setup links come from the notification outbox.
 */
const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
export const PASSWORD_SETUP_DAYS = 7;
export const MIN_PASSWORD_LENGTH = 10;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 64, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return timingSafeEqual(actual, expected);
}

/** Sets a password from a password-setup link (single use, valid seven days). */
export async function setPasswordFromSetupLink(db: Database, input: { token: string; password: string }): Promise<void> {
  if (input.password.length < MIN_PASSWORD_LENGTH) throw new AppError("invalid_request", `password: at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = await hashPassword(input.password);
  const { rows } = await db.pool.query<{ site_account_id: string }>(
    `UPDATE notification_outbox SET payload = payload || '{"used": true}'::jsonb
     WHERE kind = 'password_setup' AND payload->>'token' = $1 AND NOT (payload ? 'used')
       AND created_at > now() - make_interval(days => $2)
     RETURNING site_account_id`,
    [input.token, PASSWORD_SETUP_DAYS],
  );
  if (!rows[0]) throw new AppError("unauthorized", "this password link is invalid, expired or already used");
  await db.prisma.siteAccount.update({ where: { id: rows[0].site_account_id }, data: { passwordHash } });
}

/** The local site login: the account id when email and password match an unlocked account. */
export async function verifySiteLogin(db: Database, input: { email: string; password: string }): Promise<string> {
  const account = await db.prisma.siteAccount.findUnique({ where: { email: normalizeEmail(input.email) } });
  // Hash even when the account is missing, so timing does not tell which emails exist.
  const ok = account?.passwordHash ? await verifyPassword(input.password, account.passwordHash) : (await hashPassword(input.password), false);
  if (!account || !ok || account.locked || account.deletedAt) throw new AppError("unauthorized", "wrong email or password, or the account is locked");
  return account.id;
}
