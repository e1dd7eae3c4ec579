import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { listKeysExpiringWithin } from "../keys/expiring-keys";
import { recordEvent } from "./record-event";

/** A key is announced this many days before it stops working (the console lists the same window). */
export const KEY_EXPIRY_NOTICE_DAYS = 7;

/**
 * Records `key.expiring_soon` once for each active key that stops working within the notice
 * window: once per expiry, so a key whose expiry a roll brought forward is announced again with
 * the new time. Run by the periodic sweep on any instance; a transaction-scoped advisory lock
 * makes instances take turns, so two never announce the same key. Returns how many it recorded.
 */
export async function announceExpiringKeys(db: Database, now = new Date()): Promise<number> {
  return withTransaction(db, async (tx) => {
    await tx.sql.query("SELECT pg_advisory_xact_lock(hashtext('events:key.expiring_soon'))");
    const keys = await listKeysExpiringWithin(tx, { withinDays: KEY_EXPIRY_NOTICE_DAYS, now });
    if (keys.length === 0) return 0;
    const { rows } = await tx.sql.query<{ id: string; expires_at: string }>(
      `SELECT data->'key'->>'id' AS id, data->'key'->>'expiresAt' AS expires_at FROM events
       WHERE type = 'key.expiring_soon' AND data->'key'->>'id' = ANY($1::text[])`,
      [keys.map((key) => key.id)],
    );
    const announced = new Set(rows.map((row) => `${row.id} ${row.expires_at}`));
    let recorded = 0;
    for (const key of keys) {
      if (key.expiresAt === null || announced.has(`${key.id} ${key.expiresAt.toISOString()}`)) continue;
      await recordEvent(tx, {
        type: "key.expiring_soon",
        organizationId: key.organizationId,
        integrationId: null,
        subject: { key: { id: key.id, name: key.name, lastFour: key.lastFour, expiresAt: key.expiresAt } },
      });
      recorded += 1;
    }
    return recorded;
  });
}
