import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { recordAudit } from "./audit-log";

/**
 * Who a change is recorded for, handed to the core functions that write their audit row in
 * their own transaction (the ones that cannot run inside a caller's: they call other systems
 * between transactions, as provisioning does).
 */
export interface AuditActor {
  actor: string;
}

/** What an audit row says about a change, beside who made it. */
export interface AuditRecord {
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

/**
 * Makes a change and writes its audit row in one transaction: the row exists exactly when the
 * change does (a change that fails leaves no row; a row that cannot be written undoes the
 * change). `change` runs with the transaction's `tx`, which every domain function joins
 * (withTransaction); `describe` turns its result into the row, so details can name what the
 * change produced (a new id, the value before).
 */
export async function withAudit<T>(
  db: Database,
  actor: string,
  change: (tx: Database) => Promise<T>,
  describe: (result: T) => AuditRecord,
): Promise<T> {
  return withTransaction(db, async (tx) => {
    const result = await change(tx);
    await recordAudit(tx, { actor, ...describe(result) });
    return result;
  });
}
