import type { Database } from "../db/database";
import { databaseOf } from "../db/transaction";

/** The longest a key's use waits in memory before it is written. */
export const KEY_USAGE_FLUSH_MS = 5_000;

/** Uses not yet written by this instance (`db.instance.keyUses`): key id → when it was last used. */
export interface PendingKeyUses {
  uses: Map<string, Date>;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Notes that a key was used, in memory only: `last_used_at` is written by `flushKeyUsage`,
 * for every key used meanwhile in one UPDATE, at most KEY_USAGE_FLUSH_MS later (and on
 * shutdown), never on the request's path.
 */
export function recordKeyUse(db: Database, keyId: string): void {
  const pending = (db.instance.keyUses ??= { uses: new Map(), timer: undefined });
  pending.uses.set(keyId, new Date());
  if (!pending.timer) {
    // Written through the instance's own handle, never a transaction's that will be gone by then.
    const instance = databaseOf(db);
    pending.timer = setTimeout(() => void flushKeyUsage(instance).catch(() => {}), KEY_USAGE_FLUSH_MS);
    // A process that is done does not wait for this; its shutdown flushes instead.
    pending.timer.unref();
  }
}

/**
 * Writes the uses recorded through `db` so far, in one statement. `last_used_at` never moves
 * back (another instance may have written a later use first). Uses whose write fails are kept
 * for the next flush.
 */
export async function flushKeyUsage(db: Database): Promise<void> {
  const pending = db.instance.keyUses;
  if (!pending) return;
  clearTimeout(pending.timer);
  pending.timer = undefined;
  if (pending.uses.size === 0) return;
  const uses = pending.uses;
  pending.uses = new Map();
  try {
    await db.sql.query(
      `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.used_at)
       FROM unnest($1::text[], $2::timestamptz[]) AS u(id, used_at) WHERE k.id = u.id`,
      [[...uses.keys()], [...uses.values()]],
    );
  } catch (error) {
    for (const [id, at] of uses) if (!pending.uses.has(id)) pending.uses.set(id, at);
    throw error;
  }
}
