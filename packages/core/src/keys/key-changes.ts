import type { Database } from "../db/database";
import { onCommit } from "../db/transaction";

/** The PostgreSQL NOTIFY channel on which changes to what the key cache holds are announced. */
export const KEY_CHANGES_CHANNEL = "mga_key_changes";

/**
 * What changed: one key (revoked, its scopes or rate limit), everything of one organization
 * (its name, its tenant configuration, the organization itself), or a key was created (so no
 * instance may keep refusing it as unknown).
 */
export type KeyChange = { kind: "key"; id: string } | { kind: "organization"; id: string } | { kind: "key_created" };

/**
 * Announces a change to every instance's key cache. Call it with the `tx` of the change's own
 * transaction (`withTransaction`): PostgreSQL delivers the notification only when that
 * transaction commits, so no instance drops an entry before the change is visible, and a
 * rolled-back change announces nothing.
 */
export async function publishKeyChange(tx: Database, change: KeyChange): Promise<void> {
  await tx.sql.query("SELECT pg_notify($1, $2)", [KEY_CHANGES_CHANNEL, JSON.stringify(change)]);
  // This instance's own cache drops the entry at commit, not when its notification comes back:
  // the request after the one that made the change (a revoke, a new rate limit) must see it.
  // So do the other worker processes of this host (WORKERS), told directly before the change's
  // caller is answered; other hosts rely on the notification.
  onCommit(tx, () => {
    const cache = tx.instance.keyCache;
    cache?.apply(change);
    return cache?.tellSiblings(change);
  });
}

/** A payload as published above, or undefined for anything else (then the whole cache is dropped). */
export function parseKeyChange(payload: string): KeyChange | undefined {
  try {
    const value = JSON.parse(payload) as { kind?: unknown; id?: unknown };
    if (value.kind === "key_created") return { kind: "key_created" };
    if ((value.kind === "key" || value.kind === "organization") && typeof value.id === "string")
      return { kind: value.kind, id: value.id };
  } catch {
    // Not JSON: treated as unknown below.
  }
  return undefined;
}
