import { createHash } from "node:crypto";

import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";

/**
 * Idempotency-Key records (spec section 8), per API key:
 * - kept 24 hours (RETENTION_HOURS); after that the key may be reused;
 * - a completed request replays its status and body (with its original request_id);
 * - the same key with a different route, target or body is 409 `idempotency_conflict`;
 * - while the first request runs, a second one gets 409 with Retry-After (the loser of a
 *   race never creates anything);
 * - failures store nothing: the key is released, so the retry runs again. A request whose
 *   process crashed is retried after its lease runs out (LEASE_SECONDS).
 * The claim is one statement, so it holds across server instances sharing the database.
 * Stored responses are sealed with the server secret: a launch's replay holds its live code
 * (spec 8: retries return the original code), and no replay is readable from the database alone.
 */
export const RETENTION_HOURS = 24;
export const LEASE_SECONDS = 330;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The header's value as the server accepts it, and as the OpenAPI document states it (the same
 * RegExp): a key of 1-255 printable ASCII characters without spaces (U+0021-U+007E), bare or in
 * the quoted form of the IETF draft (a structured-field string). `""` is a quoted empty key,
 * not a two-character one.
 */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(
  `^(?!""$)(?:"[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}"|[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}})$`,
);

export type IdempotencyClaim = { kind: "claimed" } | { kind: "replay"; status: number; body: unknown };

/** The key a header carries, or undefined without the header; a value outside IDEMPOTENCY_KEY_PATTERN is a 400. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  // Only HTTP's optional whitespace surrounds a field value; anything else (a no-break space) is part of it.
  const value = header.replace(/^[ \t]+|[ \t]+$/g, "");
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new AppError(
      "invalid_request",
      `Idempotency-Key: must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`,
    );
  }
  return value.replace(/^"(.*)"$/, "$1");
}

export function requestFingerprint(route: string, input: unknown): string {
  return createHash("sha256").update(route).update("\n").update(canonicalJson(input)).digest("hex");
}

const CLAIM_SQL = `
INSERT INTO idempotency_records (api_key_id, key, fingerprint, state, created_at, locked_until, expires_at)
VALUES ($1, $2, $3, 'in_progress', now(), now() + make_interval(secs => $4), now() + make_interval(hours => $5))
ON CONFLICT (api_key_id, key) DO UPDATE
  SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL, response_body = NULL,
      created_at = now(), locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at
  WHERE idempotency_records.expires_at < now()
     OR (idempotency_records.state = 'in_progress' AND idempotency_records.locked_until < now()
         AND idempotency_records.fingerprint = EXCLUDED.fingerprint)
RETURNING 1`;

export async function claimIdempotencyKey(
  db: Database,
  input: { apiKeyId: string; key: string; fingerprint: string },
): Promise<IdempotencyClaim> {
  const claimed = await db.sql.query(CLAIM_SQL, [
    input.apiKeyId,
    input.key,
    input.fingerprint,
    LEASE_SECONDS,
    RETENTION_HOURS,
  ]);
  if (claimed.rowCount === 1) return { kind: "claimed" };
  const { rows } = await db.sql.query<{
    fingerprint: string;
    state: string;
    response_status: number | null;
    response_body: unknown;
  }>(
    "SELECT fingerprint, state, response_status, response_body FROM idempotency_records WHERE api_key_id = $1 AND key = $2",
    [input.apiKeyId, input.key],
  );
  const record = rows[0];
  // Expired and deleted between the two statements: claim again.
  if (!record) return claimIdempotencyKey(db, input);
  if (record.fingerprint !== input.fingerprint) {
    throw new AppError(
      "idempotency_conflict",
      "this Idempotency-Key was already used with a different request (route, target or body)",
    );
  }
  if (record.state === "completed" && record.response_status !== null) {
    // A record stored before responses were sealed is a plain object; it expires within a day.
    if (typeof record.response_body !== "string")
      return { kind: "replay", status: record.response_status, body: record.response_body };
    const opened = db.secrets.open("stored-response", record.response_body);
    if (opened === undefined) {
      throw new AppError(
        "idempotency_conflict",
        "the original response of this Idempotency-Key can no longer be replayed (the server's secret key changed); send the request with a new key",
      );
    }
    return { kind: "replay", status: record.response_status, body: JSON.parse(opened) };
  }
  throw new AppError(
    "idempotency_conflict",
    "a request with this Idempotency-Key is still being processed; retry shortly",
    {
      headers: { "Retry-After": "1" },
    },
  );
}

export async function completeIdempotencyKey(
  db: Database,
  input: { apiKeyId: string; key: string; status: number; body: unknown },
): Promise<void> {
  await db.sql.query(
    `UPDATE idempotency_records SET state = 'completed', response_status = $3, response_body = $4::jsonb, locked_until = now()
     WHERE api_key_id = $1 AND key = $2`,
    [
      input.apiKeyId,
      input.key,
      input.status,
      JSON.stringify(db.secrets.seal("stored-response", JSON.stringify(input.body))),
    ],
  );
}

export async function releaseIdempotencyKey(db: Database, input: { apiKeyId: string; key: string }): Promise<void> {
  await db.sql.query("DELETE FROM idempotency_records WHERE api_key_id = $1 AND key = $2 AND state = 'in_progress'", [
    input.apiKeyId,
    input.key,
  ]);
}

/** Deletes expired records and old rate-limit windows; run periodically by the server. */
export async function sweepExpiredRecords(db: Database): Promise<{ idempotency: number; rateLimits: number }> {
  const idempotency = await db.sql.query("DELETE FROM idempotency_records WHERE expires_at < now()");
  const rateLimits = await db.sql.query(
    "DELETE FROM rate_limit_counters WHERE window_start < now() - interval '10 minutes'",
  );
  const chatAnswers = await db.sql.query(
    "DELETE FROM partner_user_rate_limit_counters WHERE window_start < now() - interval '10 minutes'",
  );
  return {
    idempotency: idempotency.rowCount ?? 0,
    rateLimits: (rateLimits.rowCount ?? 0) + (chatAnswers.rowCount ?? 0),
  };
}

/** JSON with object keys sorted, so that the same body always has the same fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
