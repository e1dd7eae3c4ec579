import { withAdvisoryLocks } from "../../db/advisory-locks";
import { forEachConcurrently } from "../../shared/for-each-concurrently";
import { createPartnerAccounts, type SiteAccount } from "../ports/site-accounts";
import type { IdentityOrigin } from "./partner-user-values";
import {
  accountLockKey,
  applyLockDecision,
  emailLockKey,
  linkSiteAccount,
  lockDecisions,
  writeLinks,
  type LinkedAccount,
  type OwnershipDeps,
} from "./site-account-ownership";

type LinkUser = { id: string; email: string; name: string | null };

/**
 * linkSiteAccount for several users (an import's chunk) with the same rule, in a few
 * statements for all of them: their email locks taken in one statement, their links read in
 * one, each email looked up (the site-account system's own call), the new accounts created
 * and the found accounts' locks taken together, every link written in one statement and the
 * accounts' locks brought in line from one read. A user this cannot settle at once (a lock
 * someone else holds, an account that changed between two lookups, an email twice in the
 * set) is linked alone by linkSiteAccount afterwards, which waits as it always does. One
 * user's failure at the site-account system is that user's alone.
 */
export async function linkSiteAccounts(
  deps: OwnershipDeps,
  users: LinkUser[],
  options: { concurrency?: number } = {},
): Promise<Array<PromiseSettledResult<LinkedAccount>>> {
  const concurrency = options.concurrency ?? 1;
  const results = new Map<number, PromiseSettledResult<LinkedAccount>>();
  const alone = new Set<number>();
  if (users.length > 1) {
    await linkTogether(deps, users, results, alone, concurrency).catch((reason: unknown) => {
      // A statement of the set failed: whoever it had not settled stays unlinked (pending) this time.
      users.forEach((_, i) => {
        if (!alone.has(i) && !results.has(i)) results.set(i, { status: "rejected", reason });
      });
    });
  } else users.forEach((_, i) => alone.add(i));
  await forEachConcurrently([...alone], concurrency, async (i) => {
    results.set(
      i,
      await linkSiteAccount(deps, users[i] as LinkUser).then(
        (value): PromiseSettledResult<LinkedAccount> => ({ status: "fulfilled", value }),
        (reason: unknown): PromiseSettledResult<LinkedAccount> => ({ status: "rejected", reason }),
      ),
    );
  });
  return users.map((_, i) => results.get(i) ?? { status: "rejected", reason: new Error("not linked") });
}

async function linkTogether(
  deps: OwnershipDeps,
  users: LinkUser[],
  results: Map<number, PromiseSettledResult<LinkedAccount>>,
  alone: Set<number>,
  concurrency: number,
): Promise<void> {
  const emailKeys = users.map((user) => emailLockKey(user.email));
  const twice = new Set(emailKeys.filter((key, i) => emailKeys.indexOf(key) !== i));
  await withAdvisoryLocks(deps.db, [], async (lock, tryLocks) => {
    const busyEmails = await tryLocks(emailKeys.filter((key) => !twice.has(key)));
    let todo: number[] = [];
    users.forEach((_, i) => {
      const key = emailKeys[i] as string;
      if (twice.has(key) || busyEmails.has(key)) alone.add(i);
      else todo.push(i);
    });
    const fail = (i: number, reason: unknown) => results.set(i, { status: "rejected", reason });
    const current = await deps.db.sql.query<{
      id: string;
      site_account_id: string | null;
      identity_origin: IdentityOrigin | null;
    }>("SELECT id, site_account_id, identity_origin FROM partner_users WHERE id = ANY($1::text[])", [
      todo.map((i) => (users[i] as LinkUser).id),
    ]);
    const stored = new Map(current.rows.map((row) => [row.id, row]));
    const linked = new Map<number, LinkedAccount>();
    const found = new Map<number, SiteAccount | null>();
    // Another attempt (a PUT and the background retry race) may have linked some already.
    for (const i of todo) {
      const row = stored.get((users[i] as LinkUser).id);
      if (row?.site_account_id && row.identity_origin)
        linked.set(i, { accountId: row.site_account_id, identityOrigin: row.identity_origin });
    }
    await forEachConcurrently(
      todo.filter((i) => !linked.has(i)),
      concurrency,
      async (i) => {
        await deps.siteAccounts.findByEmail((users[i] as LinkUser).email).then(
          (account) => found.set(i, account),
          (reason: unknown) => fail(i, reason),
        );
      },
    );
    // The accounts' locks, then each found account looked up again (it may have been deleted or replaced meanwhile).
    const accountOf = (i: number) => linked.get(i)?.accountId ?? found.get(i)?.id;
    const busyAccounts = await tryLocks(todo.flatMap((i) => accountOf(i) ?? []).map(accountLockKey));
    todo = todo.filter((i) => {
      const account = accountOf(i);
      if (account && busyAccounts.has(accountLockKey(account))) alone.add(i);
      return !alone.has(i) && !results.has(i);
    });
    await forEachConcurrently(
      todo.filter((i) => found.get(i)),
      concurrency,
      async (i) => {
        await deps.siteAccounts.findByEmail((users[i] as LinkUser).email).then(
          (again) => {
            if (again?.id !== found.get(i)?.id) alone.add(i);
          },
          (reason: unknown) => fail(i, reason),
        );
      },
    );
    todo = todo.filter((i) => !alone.has(i) && !results.has(i));
    for (const i of todo) {
      const account = found.get(i);
      if (account) linked.set(i, { accountId: account.id, identityOrigin: "existing_mg" });
    }
    const toCreate = todo.filter((i) => !linked.has(i));
    const created = await createPartnerAccounts(
      deps.siteAccounts,
      toCreate.map((i) => ({ email: (users[i] as LinkUser).email, name: (users[i] as LinkUser).name ?? undefined })),
    );
    created.forEach((result, k) => {
      const i = toCreate[k] as number;
      if (result.status === "fulfilled")
        linked.set(i, { accountId: result.value.id, identityOrigin: "partner_created" });
      else fail(i, result.reason);
    });
    // Nobody else knows a new account yet, so its lock is normally free; one that is not is waited for, as alone.
    const newKeys = toCreate.flatMap((i) =>
      linked.has(i) ? [accountLockKey((linked.get(i) as LinkedAccount).accountId)] : [],
    );
    for (const key of await tryLocks(newKeys)) await lock(key);
    todo = todo.filter((i) => linked.has(i));
    const toWrite = todo.filter((i) => !stored.get((users[i] as LinkUser).id)?.site_account_id);
    await writeLinks(
      deps.db,
      toWrite.map((i) => ({ userId: (users[i] as LinkUser).id, ...(linked.get(i) as LinkedAccount) })),
    );
    const accounts = [...new Set(todo.map((i) => (linked.get(i) as LinkedAccount).accountId))];
    const decisions = await lockDecisions(deps.db, accounts);
    const refused = new Map<string, unknown>();
    await forEachConcurrently(accounts, concurrency, async (accountId) => {
      const decision = decisions.get(accountId);
      if (decision)
        await applyLockDecision(deps, accountId, decision).catch((reason: unknown) => refused.set(accountId, reason));
    });
    for (const i of todo) {
      const link = linked.get(i) as LinkedAccount;
      results.set(
        i,
        refused.has(link.accountId)
          ? { status: "rejected", reason: refused.get(link.accountId) }
          : { status: "fulfilled", value: link },
      );
    }
  });
}
