import type { Database } from "../../db/database";
import { newId } from "../../ids/new-id";
import { normalizeEmail } from "../../shared/email";
import { issuePasswordSetup, revokePasswordSetups } from "./local-password-setup";
import type { SiteAccount, SiteAccounts } from "./site-accounts";

/**
 * The built-in site-account system of the embedded default: accounts, sessions and an
 * outbox of notifications (password setup links) in our own database.
 */
export class LocalSiteAccounts implements SiteAccounts {
  constructor(private readonly db: Database) {}

  async findByEmail(email: string): Promise<SiteAccount | null> {
    const row = await this.db.prisma.siteAccount.findUnique({ where: { email: normalizeEmail(email) } });
    if (!row || row.deletedAt) return null;
    return { id: row.id, origin: row.origin === "partner" ? "partner" : "self" };
  }

  async createPartnerAccount(input: { email: string; name?: string | undefined }): Promise<SiteAccount> {
    const email = normalizeEmail(input.email);
    const row = await this.db.prisma.siteAccount.upsert({
      where: { email },
      create: { id: newId("sa"), email, name: input.name ?? null, origin: "partner" },
      update: {},
    });
    return { id: row.id, origin: row.origin === "partner" ? "partner" : "self" };
  }

  async lock(accountId: string): Promise<void> {
    await this.db.prisma.siteAccount.update({ where: { id: accountId }, data: { locked: true } });
    // A password-setup link must not outlive the access it would restore.
    await revokePasswordSetups(this.db, accountId);
  }

  async unlock(accountId: string): Promise<void> {
    const { rows } = await this.db.pool.query<{ password_hash: string | null }>(
      "UPDATE site_accounts SET locked = false WHERE id = $1 AND locked AND deleted_at IS NULL RETURNING password_hash",
      [accountId],
    );
    // Locking revoked its password-setup link: a person who never chose a password gets a new
    // one, or a reactivated user could never sign in.
    if (rows[0] && rows[0].password_hash === null) await issuePasswordSetup(this.db, accountId);
  }

  async destroySessions(accountId: string): Promise<void> {
    await this.db.prisma.siteSession.deleteMany({ where: { siteAccountId: accountId } });
  }

  async resetPassword(accountId: string): Promise<void> {
    await this.db.pool.query("UPDATE site_accounts SET password_hash = NULL WHERE id = $1", [accountId]);
    await revokePasswordSetups(this.db, accountId);
    await this.destroySessions(accountId);
  }

  async sendPasswordSetup(accountId: string): Promise<void> {
    await issuePasswordSetup(this.db, accountId);
  }

  async sendEmailVerification(accountId: string, input: { newEmail: string; token: string }): Promise<void> {
    const link = this.db.secrets.seal("notification-link", `/site/verify-email#token=${input.token}`);
    await this.db.prisma.notificationOutbox.create({
      data: { id: newId("ntf"), siteAccountId: accountId, kind: "email_verification", recipient: normalizeEmail(input.newEmail), payload: { link } },
    });
  }

  async updateProfile(accountId: string, input: { email?: string | undefined; name?: string | undefined }): Promise<void> {
    await this.db.prisma.siteAccount.update({
      where: { id: accountId },
      data: { ...(input.email !== undefined ? { email: normalizeEmail(input.email) } : {}), ...(input.name !== undefined ? { name: input.name } : {}) },
    });
  }

  async deleteAccount(accountId: string): Promise<void> {
    // The address is released (a later reprovision may create a new account for it); the row
    // stays as a tombstone without personal data.
    await revokePasswordSetups(this.db, accountId);
    await this.db.prisma.$transaction([
      this.db.prisma.siteSession.deleteMany({ where: { siteAccountId: accountId } }),
      this.db.prisma.siteAccount.updateMany({
        where: { id: accountId, deletedAt: null },
        data: { deletedAt: new Date(), email: `deleted+${accountId}@invalid`, name: null, passwordHash: null, locked: true },
      }),
    ]);
  }
}
