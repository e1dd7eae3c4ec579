import { withAdvisoryLocks } from "../../db/advisory-locks";
import type { Database } from "../../db/database";
import { normalizeEmail } from "../../shared/email";
import type { SiteAccounts } from "../ports/site-accounts";
import type { IdentityOrigin } from "./partner-user-values";

/**
 * Who may change a site account (docs/decisions.md, "Site accounts shared between partners").
 *
 * A site account is one person's identity, found by email across the whole service, so two
 * partners (in any organizations or integrations) who provision the same person share it.
 * Accounts a partner's provisioning created are recorded (partner_created_site_accounts); the
 * mapping that created one has `identity_origin = partner_created`, any later mapping links it
 * as `existing_mg`. A partner's action locks, deletes, re-emails or renames an account only
 * while it **owns** it: a partner created it and this mapping is the only one linked to it.
 * Otherwise the action applies to that partner's mapping alone (its access version, grants,
 * chat identity and record), and an email change moves the mapping to the new address's
 * account instead of re-emailing the shared one.
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

async function mappingsOf(db: Database, accountId: string, without?: string): Promise<Mapping[]> {
  const { rows } = await db.sql.query<Mapping>(
    "SELECT id, identity_origin, status FROM partner_users WHERE site_account_id = $1 AND id IS DISTINCT FROM $2",
    [accountId, without ?? null],
  );
  return rows;
}

async function partnerCreated(db: Database, accountId: string): Promise<{ lockedByUs: boolean } | undefined> {
  const { rows } = await db.sql.query<{ locked_by_us: boolean }>(
    "SELECT locked_by_us FROM partner_created_site_accounts WHERE site_account_id = $1",
    [accountId],
  );
  return rows[0] ? { lockedByUs: rows[0].locked_by_us } : undefined;
}

/** A partner created the account and `userId` is the only mapping linked to it. Call under the account's lock. */
export async function ownsSiteAccount(db: Database, accountId: string, userId: string): Promise<boolean> {
  const mappings = await mappingsOf(db, accountId);
  return mappings.length === 1 && mappings[0]?.id === userId && (await partnerCreated(db, accountId)) !== undefined;
}

/**
 * Brings the account's lock in line with its mappings: an account a partner created is locked
 * while its creator is its only mapping and is not active (disabled, or being deleted), and
 * unlocked otherwise, because then it serves someone else too. Only a lock we placed is ever
 * lifted; accounts no partner created are never touched. `without`: a mapping about to be
 * detached. Call under the account's lock, after the change that prompted it has committed.
 */
export async function reconcileSiteAccountLock(
  deps: OwnershipDeps,
  accountId: string,
  options: { without?: string } = {},
): Promise<void> {
  const decision = (await lockDecisions(deps.db, [accountId], options.without)).get(accountId);
  if (decision) await applyLockDecision(deps, accountId, decision);
}

export interface LockDecision {
  lockedByUs: boolean;
  lock: boolean;
}

/** The rule of reconcileSiteAccountLock for several accounts in one read (the same rule as reconcileAllSiteAccountLocks); accounts no partner created are absent. */
export async function lockDecisions(
  db: Database,
  accountIds: string[],
  without?: string,
): Promise<Map<string, LockDecision>> {
  const { rows } = await db.sql.query<{ site_account_id: string; locked_by_us: boolean; lock: boolean }>(
    `SELECT p.site_account_id, p.locked_by_us, (count(u.id) = 1 AND COALESCE(bool_or(u.identity_origin = 'partner_created' AND u.status <> 'active'), false)) AS lock
     FROM partner_created_site_accounts p LEFT JOIN partner_users u ON u.site_account_id = p.site_account_id AND u.id IS DISTINCT FROM $2::text
     WHERE p.site_account_id = ANY($1::text[]) GROUP BY p.site_account_id, p.locked_by_us`,
    [accountIds, without ?? null],
  );
  return new Map(rows.map((row) => [row.site_account_id, { lockedByUs: row.locked_by_us, lock: row.lock }]));
}

export async function applyLockDecision(deps: OwnershipDeps, accountId: string, decision: LockDecision): Promise<void> {
  if (decision.lock === decision.lockedByUs) return;
  if (decision.lock) await deps.siteAccounts.lock(accountId);
  else await deps.siteAccounts.unlock(accountId);
  await deps.db.sql.query("UPDATE partner_created_site_accounts SET locked_by_us = $2 WHERE site_account_id = $1", [
    accountId,
    decision.lock,
  ]);
}

/** Runs `work` holding the account's lock (and the new email's, first, when one is given). */
export function withSiteAccount<T>(
  deps: OwnershipDeps,
  accountId: string,
  work: () => Promise<T>,
  options: { newEmail?: string | undefined } = {},
): Promise<T> {
  const keys = [...(options.newEmail ? [emailLockKey(options.newEmail)] : []), accountLockKey(accountId)];
  return withAdvisoryLocks(deps.db, keys, () => work());
}

/** Every account whose lock disagrees with the rule (data from before it), brought in line; errors are the caller's to log. */
export async function reconcileAllSiteAccountLocks(deps: OwnershipDeps): Promise<number> {
  const { rows } = await deps.db.sql.query<{ site_account_id: string }>(
    `SELECT p.site_account_id FROM partner_created_site_accounts p
     LEFT JOIN partner_users u ON u.site_account_id = p.site_account_id
     GROUP BY p.site_account_id, p.locked_by_us
     HAVING p.locked_by_us <> (count(u.id) = 1 AND COALESCE(bool_or(u.identity_origin = 'partner_created' AND u.status <> 'active'), false))`,
  );
  for (const row of rows)
    await withSiteAccount(deps, row.site_account_id, () => reconcileSiteAccountLock(deps, row.site_account_id));
  return rows.length;
}

export interface LinkedAccount {
  accountId: string;
  identityOrigin: IdentityOrigin;
}

const MAX_LOOKUPS = 5;

/**
 * Links a user to the site account of its email, creating (and recording) a partner account
 * when there is none. Under the email's lock nobody else creates an account for the address
 * meanwhile; under the found account's lock (looked up again once held) nobody deletes it
 * before the link is written. Then the account's lock is brought in line: linking an account
 * another partner's disabled user had locked lifts that lock, and a creator disabled before
 * its provisioning completed gets its account locked. A retry after a failure there finds the
 * link written and reconciles again.
 */
export async function linkSiteAccount(
  deps: OwnershipDeps,
  user: { id: string; email: string; name: string | null },
): Promise<LinkedAccount> {
  return withAdvisoryLocks(deps.db, [emailLockKey(user.email)], async (lock) => {
    const current = await deps.db.sql.query<{
      site_account_id: string | null;
      identity_origin: LinkedAccount["identityOrigin"] | null;
    }>("SELECT site_account_id, identity_origin FROM partner_users WHERE id = $1", [user.id]);
    const already = current.rows[0];
    let linked: LinkedAccount;
    if (already?.site_account_id && already.identity_origin) {
      // Another attempt (a PUT and the background retry race) linked it first.
      linked = { accountId: already.site_account_id, identityOrigin: already.identity_origin };
      await lock(accountLockKey(linked.accountId));
    } else {
      let found = await deps.siteAccounts.findByEmail(user.email);
      for (let lookups = 1; found; lookups += 1) {
        await lock(accountLockKey(found.id));
        const again = await deps.siteAccounts.findByEmail(user.email);
        if (again?.id === found.id) break;
        if (lookups === MAX_LOOKUPS)
          throw new Error("the site account of this email keeps changing; provisioning will be retried");
        found = again;
      }
      const account =
        found ?? (await deps.siteAccounts.createPartnerAccount({ email: user.email, name: user.name ?? undefined }));
      linked = { accountId: account.id, identityOrigin: found ? "existing_mg" : "partner_created" };
      if (!found) await lock(accountLockKey(account.id));
      await writeLinks(deps.db, [{ userId: user.id, ...linked }]);
    }
    await reconcileSiteAccountLock(deps, linked.accountId);
    return linked;
  });
}

/** Records the accounts a partner's provisioning created and links the users to their accounts, in one statement. Call under the accounts' locks. */
export async function writeLinks(db: Database, links: Array<{ userId: string } & LinkedAccount>): Promise<void> {
  if (links.length === 0) return;
  await db.sql.query(
    `WITH l AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS l(user_id, account_id, origin)),
     recorded AS (
       INSERT INTO partner_created_site_accounts (site_account_id, created_at)
       SELECT DISTINCT account_id, now() FROM l WHERE origin = 'partner_created' ON CONFLICT DO NOTHING
     )
     UPDATE partner_users u SET site_account_id = l.account_id, identity_origin = l.origin,
       experience_type = CASE WHEN l.origin = 'existing_mg' THEN 'mg' ELSE 'white_label' END, mapping_status = 'mapped', updated_at = now()
     FROM l WHERE u.id = l.user_id AND u.site_account_id IS NULL`,
    [links.map((link) => link.userId), links.map((link) => link.accountId), links.map((link) => link.identityOrigin)],
  );
}
