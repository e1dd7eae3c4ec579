import { withAdvisoryLocks } from "../../db/advisory-locks";
import type { Database } from "../../db/database";
import type { SiteAccounts } from "../ports/site-accounts";
import { normalizeEmail } from "../../shared/email";

/**
 * Who may change a site account (docs/decisions.md, "Site accounts shared between partners").
 *
 * A site account is one person's identity, found by email across the whole service, so two
 * partners (in any organizations or integrations) who provision the same person share it. The
 * mapping that created it is the one with `identity_origin = partner_created`; any later
 * mapping links it as `existing_mg`. A partner's lifecycle action locks, deletes or re-emails
 * the account only while its mapping is the creator and the only mapping linked to it (`sole`);
 * otherwise the action applies to that partner's mapping alone (its access version, grants and
 * chat identity), and an email change needs verification at the new address, as for any
 * pre-existing account.
 *
 * Every decision and the write it leads to happen under an advisory lock on the account (and,
 * while an account is being found or created for an email, on the email), so a link made by
 * one partner and a deletion or lock by another can never interleave. Lock order: email keys
 * before account keys.
 */
export interface OwnershipDeps {
  db: Database;
  siteAccounts: SiteAccounts;
}

export const emailLockKey = (email: string) => `site-email:${normalizeEmail(email)}`;
export const accountLockKey = (accountId: string) => `site-account:${accountId}`;

interface Mapping {
  id: string;
  identity_origin: string | null;
  status: string;
}

async function mappingsOf(db: Database, accountId: string): Promise<Mapping[]> {
  const { rows } = await db.pool.query<Mapping>("SELECT id, identity_origin, status FROM partner_users WHERE site_account_id = $1", [accountId]);
  return rows;
}

/** True when `userId` created the account and no other mapping is linked to it. Call under the account's lock. */
export async function solelyOwns(db: Database, accountId: string, userId: string): Promise<boolean> {
  const mappings = await mappingsOf(db, accountId);
  return mappings.length === 1 && mappings[0]?.id === userId && mappings[0].identity_origin === "partner_created";
}

/**
 * Brings the account's lock in line with its mappings: an account we created is locked while
 * its creator is its only mapping and is not active (disabled, or being deleted), and unlocked
 * otherwise, because then it serves someone else too. Accounts we did not create are never
 * touched. Call under the account's lock, after the change that prompted it has committed.
 */
export async function reconcileSiteAccountLock(deps: OwnershipDeps, accountId: string): Promise<void> {
  const mappings = await mappingsOf(deps.db, accountId);
  const creator = mappings.find((mapping) => mapping.identity_origin === "partner_created");
  if (!creator) return;
  if (mappings.length === 1 && creator.status !== "active") await deps.siteAccounts.lock(accountId);
  else await deps.siteAccounts.unlock(accountId);
}

/** Runs `work` holding the account's lock (see the order above). */
export function withSiteAccount<T>(deps: OwnershipDeps, accountId: string, work: () => Promise<T>, options: { newEmail?: string | undefined } = {}): Promise<T> {
  const keys = [...(options.newEmail ? [emailLockKey(options.newEmail)] : []), accountLockKey(accountId)];
  return withAdvisoryLocks(deps.db, keys, () => work());
}

export interface LinkedAccount {
  accountId: string;
  identityOrigin: "existing_mg" | "partner_created";
}

const MAX_LOOKUPS = 5;

/**
 * Links a user to the site account of its email, creating a partner account when there is
 * none. Under the email's lock nobody else creates an account for the address meanwhile;
 * under the found account's lock (looked up again once held) nobody deletes it before the
 * link is written. Linking an account another partner created makes it shared, which lifts a
 * lock that partner's action had placed on it.
 */
export async function linkSiteAccount(deps: OwnershipDeps, user: { id: string; email: string; name: string | null }): Promise<LinkedAccount> {
  return withAdvisoryLocks(deps.db, [emailLockKey(user.email)], async (lock) => {
    const current = await deps.db.pool.query<{ site_account_id: string | null; identity_origin: LinkedAccount["identityOrigin"] | null }>(
      "SELECT site_account_id, identity_origin FROM partner_users WHERE id = $1",
      [user.id],
    );
    const already = current.rows[0];
    // Another attempt (a PUT and the background retry race) linked it first.
    if (already?.site_account_id && already.identity_origin) return { accountId: already.site_account_id, identityOrigin: already.identity_origin };

    let found = await deps.siteAccounts.findByEmail(user.email);
    for (let lookups = 1; found; lookups += 1) {
      await lock(accountLockKey(found.id));
      const again = await deps.siteAccounts.findByEmail(user.email);
      if (again?.id === found.id) break;
      if (lookups === MAX_LOOKUPS) throw new Error("the site account of this email keeps changing; provisioning will be retried");
      found = again;
    }
    const account = found ?? (await deps.siteAccounts.createPartnerAccount({ email: user.email, name: user.name ?? undefined }));
    const identityOrigin = found ? "existing_mg" : "partner_created";
    await deps.db.pool.query(
      `UPDATE partner_users SET site_account_id = $2, identity_origin = $3, experience_type = $4, mapping_status = 'mapped', updated_at = now()
       WHERE id = $1 AND site_account_id IS NULL`,
      [user.id, account.id, identityOrigin, identityOrigin === "existing_mg" ? "mg" : "white_label"],
    );
    if (found) await reconcileSiteAccountLock(deps, account.id);
    return { accountId: account.id, identityOrigin };
  });
}
