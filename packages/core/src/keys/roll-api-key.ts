import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { COLUMNS, toSummary, type ApiKeySummary, type KeyRow } from "./api-keys";
import { publishKeyChange } from "./key-changes";
import { assertNewKeyExpiry, assertRollOverlap } from "./key-expiry";
import { generateApiKey } from "./key-secret";

export interface RolledKey {
  /** The successor: a new secret, shown once, with everything the partner's integration relies on copied. */
  key: ApiKeySummary;
  plaintext: string;
  /** The key it replaces, with its new (never later) expiry. */
  previous: ApiKeySummary;
}

/**
 * Rolls a key: a successor with a new secret and the same name, scopes, rate limit, alias
 * grants and launch binding (so swapping the secret is the partner's only change), and the old
 * key expires `oldKeyExpiresInSeconds` from now (0 to seven days); both work until then.
 * A roll never lengthens the old key's life: an earlier expiry it had stays. The successor
 * expires at `expiresAt` (creation's bounds) or never. One transaction, announced to every
 * instance's key cache at commit.
 */
export async function rollApiKey(
  db: Database,
  id: string,
  input: { oldKeyExpiresInSeconds: number; expiresAt?: Date | null },
): Promise<RolledKey> {
  assertRollOverlap(input.oldKeyExpiresInSeconds);
  const expiresAt = input.expiresAt ?? null;
  assertNewKeyExpiry(expiresAt);
  const oldKeyExpiresAt = new Date(Date.now() + input.oldKeyExpiresInSeconds * 1000);
  const secret = generateApiKey();
  return withTransaction(db, async (tx) => {
    const { rows: found } = await tx.sql.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    const old = found[0];
    if (!old) throw new AppError("not_found", `key ${id} not found`);
    if (old.status !== "active")
      throw new AppError("invalid_request", `key ${id} is revoked; create a new key instead`);
    // A second live successor would leave the partner two secrets to track: revoke the first one to roll again.
    const { rows: live } = await tx.sql.query<{ id: string }>(
      "SELECT id FROM api_keys WHERE rolled_from_key_id = $1 AND status = 'active' AND (expires_at IS NULL OR expires_at > now()) LIMIT 1",
      [id],
    );
    if (live[0])
      throw new AppError(
        "invalid_request",
        `key ${id} was already rolled to ${live[0].id}; revoke that key first to roll again`,
      );

    const { rows: inserted } = await tx.sql.query<KeyRow>(
      `INSERT INTO api_keys (id, organization_id, name, secret_hash, last_four, scopes, rate_limit_per_minute, expires_at, rolled_from_key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        newId("key"),
        old.organizationId,
        old.name,
        secret.secretHash,
        secret.lastFour,
        old.scopes,
        old.rateLimitPerMinute,
        expiresAt,
        old.id,
      ],
    );
    const successor = inserted[0] as KeyRow;
    // The aliases granted to the old key are granted to the successor too (ALIAS_GRANT_RULE).
    await tx.sql.query(
      "UPDATE integration_aliases SET granted_key_ids = array_append(granted_key_ids, $2) WHERE $1 = ANY (granted_key_ids)",
      [old.id, successor.id],
    );
    // The launch binding, as it stands (enabled or not); its version starts afresh with the new key.
    await tx.sql.query(
      `INSERT INTO launch_bindings (api_key_id, integration_id, public_name, enabled)
       SELECT $2, integration_id, public_name, enabled FROM launch_bindings WHERE api_key_id = $1`,
      [old.id, successor.id],
    );
    const { rows: updated } = await tx.sql.query<KeyRow>(
      `UPDATE api_keys SET expires_at = LEAST(COALESCE(expires_at, $2), $2) WHERE id = $1 RETURNING ${COLUMNS}`,
      [old.id, oldKeyExpiresAt],
    );
    // The old key's cached record must learn its expiry; no instance may refuse the new key as unknown.
    await publishKeyChange(tx, { kind: "key", id: old.id });
    await publishKeyChange(tx, { kind: "key_created" });
    return { key: toSummary(successor), plaintext: secret.plaintext, previous: toSummary(updated[0] as KeyRow) };
  });
}
