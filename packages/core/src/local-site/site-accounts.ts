import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import type { SiteAccount, SiteAccounts } from "../partners/ports/site-accounts";
import { normalizeEmail } from "../shared/email";
import { addToOutbox } from "./outbox";
import { issuePasswordSetup, issuePasswordSetups, revokePasswordSetups } from "./password-setup";

/**
 * The built-in site-account system of the embedded default: accounts, sessions and an
 * outbox of notifications (password setup links) in our own database.
 */
export class LocalSiteAccounts implements SiteAccounts {
  constructor(private readonly db: Database) {}

  async findByEmail(email: string): Promise<SiteAccount | null> {
    const { rows } = await this.db.sql.query<{ id: string; origin: string; deleted_at: Date | null }>(
      "SELECT id, origin, deleted_at FROM site_accounts WHERE email = $1",
      [normalizeEmail(email)],
    );
    const row = rows[0];
    if (!row || row.deleted_at) return null;
    return { id: row.id, origin: row.origin === "partner" ? "partner" : "self" };
  }

  async createPartnerAccount(input: { email: string; name?: string | undefined }): Promise<SiteAccount> {
    const email = normalizeEmail(input.email);
    // An account that has the address already is the one returned, unchanged (the no-op update only returns it).
    const { rows } = await this.db.sql.query<{ id: string; origin: string }>(
      "INSERT INTO site_accounts (id, email, name, origin) VALUES ($1, $2, $3, 'partner') ON CONFLICT (email) DO UPDATE SET email = site_accounts.email RETURNING id, origin",
      [newId("sa"), email, input.name ?? null],
    );
    const row = rows[0] as { id: string; origin: string };
    return { id: row.id, origin: row.origin === "partner" ? "partner" : "self" };
  }

  async createPartnerAccounts(
    inputs: Array<{ email: string; name?: string | undefined }>,
  ): Promise<Array<PromiseSettledResult<SiteAccount>>> {
    const emails = inputs.map((input) => normalizeEmail(input.email));
    // One row per address: one statement may not update the same row twice.
    const unique = [...new Map(inputs.map((input, i) => [emails[i] as string, input])).entries()];
    const { rows } = await this.db.sql.query<{ id: string; origin: string; email: string }>(
      `INSERT INTO site_accounts (id, email, name, origin) SELECT id, email, name, 'partner' FROM unnest($1::text[], $2::text[], $3::text[]) AS n(id, email, name)
       ON CONFLICT (email) DO UPDATE SET email = site_accounts.email RETURNING id, origin, email`,
      [unique.map(() => newId("sa")), unique.map(([email]) => email), unique.map(([, input]) => input.name ?? null)],
    );
    const byEmail = new Map(
      rows.map((row): [string, SiteAccount] => [
        row.email,
        { id: row.id, origin: row.origin === "partner" ? "partner" : "self" },
      ]),
    );
    return emails.map((email): PromiseSettledResult<SiteAccount> => {
      const account = byEmail.get(email);
      return account
        ? { status: "fulfilled", value: account }
        : { status: "rejected", reason: new Error("the site account was not stored") };
    });
  }

  async lock(accountId: string): Promise<void> {
    await this.updateAccount(accountId, "locked = true", []);
    // A password-setup link must not outlive the access it would restore.
    await revokePasswordSetups(this.db, accountId);
  }

  async unlock(accountId: string): Promise<void> {
    const { rows } = await this.db.sql.query<{ password_hash: string | null }>(
      "UPDATE site_accounts SET locked = false WHERE id = $1 AND locked AND deleted_at IS NULL RETURNING password_hash",
      [accountId],
    );
    // Locking revoked its password-setup link: a person who never chose a password gets a new
    // one, or a reactivated user could never sign in.
    if (rows[0] && rows[0].password_hash === null) await issuePasswordSetup(this.db, accountId);
  }

  async destroySessions(accountId: string): Promise<void> {
    await this.db.sql.query("DELETE FROM site_sessions WHERE site_account_id = $1", [accountId]);
  }

  async resetPassword(accountId: string): Promise<void> {
    await this.db.sql.query("UPDATE site_accounts SET password_hash = NULL WHERE id = $1", [accountId]);
    await revokePasswordSetups(this.db, accountId);
    await this.destroySessions(accountId);
  }

  async sendPasswordSetup(accountId: string): Promise<void> {
    await issuePasswordSetup(this.db, accountId);
  }

  async sendPasswordSetups(accountIds: string[]): Promise<Array<PromiseSettledResult<void>>> {
    const issued = await issuePasswordSetups(this.db, accountIds);
    return accountIds.map((id): PromiseSettledResult<void> =>
      issued.has(id)
        ? { status: "fulfilled", value: undefined }
        : { status: "rejected", reason: new AppError("not_found", `site account ${id} not found`) },
    );
  }

  async sendEmailVerification(accountId: string, input: { newEmail: string; token: string }): Promise<void> {
    const link = this.db.secrets.seal("notification-link", `/site/verify-email#token=${input.token}`);
    await addToOutbox(this.db, {
      accountId,
      kind: "email_verification",
      recipient: normalizeEmail(input.newEmail),
      payload: { link },
    });
  }

  async updateProfile(
    accountId: string,
    input: { email?: string | undefined; name?: string | undefined },
  ): Promise<void> {
    // Each column only when given (COALESCE keeps the stored value for an absent one).
    await this.updateAccount(accountId, "email = COALESCE($2, email), name = CASE WHEN $3 THEN $4 ELSE name END", [
      input.email !== undefined ? normalizeEmail(input.email) : null,
      input.name !== undefined,
      input.name ?? null,
    ]);
  }

  async deleteAccount(accountId: string): Promise<void> {
    // The address is released (a later reprovision may create a new account for it); the row
    // stays as a tombstone without personal data.
    await revokePasswordSetups(this.db, accountId);
    await withTransaction(this.db, async (tx) => {
      await tx.sql.query("DELETE FROM site_sessions WHERE site_account_id = $1", [accountId]);
      await tx.sql.query(
        "UPDATE site_accounts SET deleted_at = $2, email = $3, name = NULL, password_hash = NULL, locked = true WHERE id = $1 AND deleted_at IS NULL",
        [accountId, new Date(), `deleted+${accountId}@invalid`],
      );
    });
  }

  /** One UPDATE of an account ($1 is its id); a missing account is a 404, as Prisma's update made it. */
  private async updateAccount(accountId: string, set: string, params: unknown[]): Promise<void> {
    const { rowCount } = await this.db.sql.query(`UPDATE site_accounts SET ${set} WHERE id = $1`, [
      accountId,
      ...params,
    ]);
    if (!rowCount) throw new AppError("not_found", "this record no longer exists");
  }
}
