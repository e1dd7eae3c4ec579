import { withTransaction } from "../../db/transaction";
import { announceLaunchEligibility } from "../../webhooks/partner-events";
import { createChatIdentities } from "../ports/chat-identities";
import { sendPasswordSetups } from "../ports/site-accounts";
import type { DirectoryDeps } from "./directory-deps";
import { linkSiteAccounts } from "./link-site-accounts";
import type { LinkedAccount } from "./site-account-ownership";
import type { StoredUser } from "./stored-user";

/**
 * Links the site accounts and chat identities of pending users (PUT user's one, a background
 * retry's or a reprovision's one, or an import chunk's): their site accounts are linked
 * (linkSiteAccounts: together, and alone for whoever that cannot settle; `concurrency` calls
 * to the site-account system at a time), then the chat identities, the completions and the
 * password-setup notifications of all of them go in one call each. One user's failure leaves
 * that user pending and the others unaffected. The result says, per user in order, whether it
 * is fully provisioned. Callers with an external user id read its stored fields first
 * (readStoredUser).
 */
export async function completeProvisioning(
  deps: DirectoryDeps,
  users: StoredUser[],
  options: { concurrency?: number } = {},
): Promise<boolean[]> {
  const { db } = deps;
  const done = users.map((user) => user.provisioning_status === "active");
  const incomplete = (i: number, error: unknown) =>
    deps.log?.("provisioning incomplete; the user stays pending", { user_id: users[i]?.id, error: String(error) });
  const todo = users.flatMap((user, i) =>
    user.provisioning_status === "active" || user.status === "deleted" ? [] : [i],
  );
  const retried = todo
    .filter((i) => users[i]?.provisioning_status === "failed")
    .map((i) => (users[i] as StoredUser).id);
  if (retried.length)
    await db.sql.query("UPDATE partner_users SET provisioning_status = 'pending' WHERE id = ANY($1::text[])", [
      retried,
    ]);

  // Also when already linked: the account's lock is brought in line again, should an earlier attempt have failed there.
  const links = await linkSiteAccounts(
    deps,
    todo.map((i) => users[i] as StoredUser),
    { concurrency: options.concurrency ?? 1 },
  );
  const linked = new Map<number, LinkedAccount>();
  links.forEach((result, k) => {
    const i = todo[k] as number;
    if (result.status === "fulfilled") linked.set(i, result.value);
    else incomplete(i, result.reason);
  });
  const toIdentify = todo.filter((i) => linked.has(i));
  const identities = await createChatIdentities(
    deps.chatIdentities,
    toIdentify.map((i) => ({
      partnerUserId: (users[i] as StoredUser).id,
      generation: (users[i] as StoredUser).account_generation,
    })),
  );
  const identified = new Map<number, string>();
  identities.forEach((result, k) => {
    const i = toIdentify[k] as number;
    if (result.status === "fulfilled") identified.set(i, result.value.id);
    else incomplete(i, result.reason);
  });
  if (identified.size === 0) return done;

  // Only the attempt that completes provisioning sends the notification (a PUT and the background retry may race).
  let completedIds: Set<string>;
  try {
    completedIds = await withTransaction(db, async (tx) => {
      const completed = await tx.sql.query<{ id: string }>(
        `UPDATE partner_users u SET chat_identity_id = c.identity_id, provisioning_status = 'active', updated_at = now()
         FROM unnest($1::text[], $2::text[]) AS c(id, identity_id) WHERE u.id = c.id AND u.provisioning_status <> 'active' RETURNING u.id`,
        [[...identified.keys()].map((i) => (users[i] as StoredUser).id), [...identified.values()]],
      );
      // Users who can now launch are announced with the change (docs/decisions.md, "Events and webhooks").
      await announceLaunchEligibility(
        tx,
        completed.rows.map((row) => row.id),
      );
      return new Set(completed.rows.map((row) => row.id));
    });
  } catch (error) {
    for (const i of identified.keys()) incomplete(i, error);
    return done;
  }
  for (const i of identified.keys()) done[i] = true;
  // Only now that provisioning succeeded (spec 3.1). A failed send does not undo it.
  const toNotify = [...identified.keys()].filter(
    (i) => completedIds.has((users[i] as StoredUser).id) && linked.get(i)?.identityOrigin === "partner_created",
  );
  const sent = await sendPasswordSetups(
    deps.siteAccounts,
    toNotify.map((i) => (linked.get(i) as LinkedAccount).accountId),
  );
  sent.forEach((result, k) => {
    if (result.status === "rejected")
      deps.log?.("password-setup notification failed", {
        user_id: users[toNotify[k] as number]?.id,
        error: String(result.reason),
      });
  });
  return done;
}
