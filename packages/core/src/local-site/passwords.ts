import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { verifyNothing, verifyPassword } from "../passwords/password-hash";
import { normalizeEmail } from "../shared/email";

/**
 * The built-in site-account system's password check (the embedded default's site login). Its
 * throttle and its place in the sign-in are the caller's (login.ts): a
 * right password counts as a success only once the whole sign-in has succeeded.
 */
export async function verifySiteLogin(
  db: Database,
  input: { email: string; password: string; onlyAccountId: string | null },
): Promise<string> {
  const { rows } = await db.sql.query<{
    id: string;
    password_hash: string | null;
    locked: boolean;
    deleted_at: Date | null;
  }>("SELECT id, password_hash, locked, deleted_at FROM site_accounts WHERE email = $1", [normalizeEmail(input.email)]);
  // Only the one account this sign-in may open has its password checked; any other is a failure.
  const account = rows[0]?.id === input.onlyAccountId ? rows[0] : undefined;
  // Hash even when there is no such account or no password, so timing does not tell which emails exist.
  const ok = account?.password_hash
    ? await verifyPassword(input.password, account.password_hash)
    : await verifyNothing(input.password);
  if (!account || !ok || account.locked || account.deleted_at)
    throw new AppError("unauthorized", "wrong email or password");
  return account.id;
}
