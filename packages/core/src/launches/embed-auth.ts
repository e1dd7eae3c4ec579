import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { hashSecret, newSecretToken } from "../ids/secret-token";
import { LAUNCH_CODE_SECONDS } from "./launches";

/**
 * The launch's server side after issue (spec 3.6), with a clock that tests control:
 *   consume the code (once, within two minutes) → an authentication-only session (ten
 *   minutes) → the site login creates an absolute 24-hour grant (a same-day relaunch finds
 *   it and skips the login) → one loan-scoped chat token, ending at the earlier of eight
 *   hours and the grant's end, never refreshed.
 * Every step and every later use re-checks that nothing revoked the launch: the user is
 * active with the same access_version and account generation, the key's launch binding is
 * still enabled for the same public name at the same version, and the integration is active
 * at the same access_version. Disabling, deleting or reprovisioning a user, unbinding the key,
 * withdrawing the alias it launches through or disabling the integration therefore ends
 * sessions, grants and tokens at once, and for good: each moves a version the launch
 * snapshotted, so undoing the change revives none of them.
 */
export const AUTH_SESSION_SECONDS = 600;
export const GRANT_HOURS = 24;
export const CHAT_TOKEN_HOURS = 8;

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

interface LaunchRow {
  id: string;
  api_key_id: string;
  integration_id: string;
  partner_user_id: string;
  access_version: number;
  account_generation: number;
  binding_version: number;
  integration_access_version: number;
  loan_context: Record<string, unknown>;
  attribution: { public_name: string; integration: string; los_source: string };
}

const LAUNCH_COLUMNS =
  "id, api_key_id, integration_id, partner_user_id, access_version, account_generation, binding_version, integration_access_version, loan_context, attribution";

const revoked = () =>
  new AppError(
    "unauthorized",
    "this launch is no longer valid; request a fresh launch from your loan origination system",
  );

/** The checks every step repeats; one query. */
async function assertStillAuthorized(db: Database, launch: LaunchRow): Promise<{ siteAccountId: string | null }> {
  const { rows } = await db.sql.query<{ ok: boolean; site_account_id: string | null }>(
    `SELECT (u.status = 'active' AND u.access_version = $2 AND u.account_generation = $3 AND i.status = 'active' AND i.access_version = $8
             AND b.enabled AND b.public_name = $6 AND b.version = $7 AND k.status = 'active'
             -- an expired key, or one whose embed:launch scope was removed, ends its launches' sessions as a revocation does
             AND (k.expires_at IS NULL OR k.expires_at > now()) AND 'embed:launch' = ANY (k.scopes)
             -- an alias still granted to the key (ALIAS_GRANT_RULE): withdrawing the grant ends the launch's sessions
             AND (b.public_name = i.slug OR EXISTS (SELECT 1 FROM integration_aliases a
                    WHERE a.integration_id = i.id AND a.slug = b.public_name AND k.id = ANY (a.granted_key_ids)))) AS ok, u.site_account_id
     FROM partner_users u
     JOIN integrations i ON i.id = $4
     JOIN launch_bindings b ON b.api_key_id = $5
     JOIN api_keys k ON k.id = $5
     WHERE u.id = $1`,
    [
      launch.partner_user_id,
      launch.access_version,
      launch.account_generation,
      launch.integration_id,
      launch.api_key_id,
      launch.attribution.public_name,
      launch.binding_version,
      launch.integration_access_version,
    ],
  );
  if (!rows[0]?.ok) throw revoked();
  return { siteAccountId: rows[0].site_account_id };
}

async function loadLaunch(db: Database, launchId: string): Promise<LaunchRow> {
  const { rows } = await db.sql.query<LaunchRow>(`SELECT ${LAUNCH_COLUMNS} FROM launches WHERE id = $1`, [launchId]);
  if (!rows[0]) throw revoked();
  return rows[0];
}

export interface ConsumedLaunch {
  sessionToken: string;
  expiresAt: Date;
  /** False when a grant of today already covers this user: the chat token can be had at once. */
  loginRequired: boolean;
}

/** Consumes a launch code: exactly once, before it expires. A second consumption fails. */
export async function consumeLaunchCode(
  db: Database,
  code: string,
  clock: Clock = systemClock,
): Promise<ConsumedLaunch> {
  const now = clock();
  const { rows } = await db.sql.query<LaunchRow>(
    `UPDATE launches SET consumed_at = $2 WHERE code_hash = $1 AND consumed_at IS NULL AND expires_at > $2
     RETURNING ${LAUNCH_COLUMNS}`,
    [hashSecret(code), now],
  );
  const launch = rows[0];
  if (!launch) throw await launchCodeRefusal(db, code);
  await assertStillAuthorized(db, launch);
  const grant = await findActiveGrant(db, launch, now);
  const sessionToken = newSecretToken(24);
  const expiresAt = new Date(now.getTime() + AUTH_SESSION_SECONDS * 1000);
  await db.sql.query(
    "INSERT INTO embed_sessions (id, launch_id, partner_user_id, token_hash, expires_at, grant_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    [newId("es"), launch.id, launch.partner_user_id, hashSecret(sessionToken), expiresAt, grant?.id ?? null, now],
  );
  return { sessionToken, expiresAt, loginRequired: !grant };
}

/** Why a launch code was refused, for the page to say what happened (the code's holder alone can ask). */
export type LaunchCodeRefusal = "used" | "expired" | "unknown";

/** The header naming the refusal: the envelope stays exactly code, message and request_id. */
export const LAUNCH_CODE_STATUS_HEADER = "Launch-Code-Status";

const REFUSALS: Record<LaunchCodeRefusal, string> = {
  used: "this launch link was already used (each link opens the chat once); open the assistant again from the loan file",
  expired: `this launch link expired (a link works for ${LAUNCH_CODE_SECONDS / 60} minutes after it is issued); open the assistant again from the loan file`,
  unknown: "this launch link is not valid; open the assistant again from the loan file",
};

/**
 * A code the consume refused: used (whenever that was) wins over expired, so a reload of a
 * page whose code was used says so even minutes later.
 */
async function launchCodeRefusal(db: Database, code: string): Promise<AppError> {
  const { rows } = await db.sql.query<{ used: boolean }>(
    "SELECT consumed_at IS NOT NULL AS used FROM launches WHERE code_hash = $1",
    [hashSecret(code)],
  );
  const reason: LaunchCodeRefusal = !rows[0] ? "unknown" : rows[0].used ? "used" : "expired";
  return new AppError("unauthorized", REFUSALS[reason], { headers: { [LAUNCH_CODE_STATUS_HEADER]: reason } });
}

/**
 * A grant serves a relaunch only if it was created under everything the relaunch stands on: the
 * same user versions, the same key at the same binding version, the same integration version.
 * The relaunch itself was just checked, so a grant from before any revocation is never reused,
 * and a chat token's one launch check also covers the grant it rides on.
 */
async function findActiveGrant(
  db: Database,
  launch: LaunchRow,
  now: Date,
): Promise<{ id: string; expiresAt: Date } | undefined> {
  const { rows } = await db.sql.query<{ id: string; expiresAt: Date }>(
    `SELECT id, expires_at AS "expiresAt" FROM chat_grants
     WHERE partner_user_id = $1 AND access_version = $2 AND account_generation = $3 AND revoked_at IS NULL AND expires_at > $4
       AND api_key_id = $5 AND binding_version = $6 AND integration_access_version = $7
     ORDER BY expires_at DESC LIMIT 1`,
    [
      launch.partner_user_id,
      launch.access_version,
      launch.account_generation,
      now,
      launch.api_key_id,
      launch.binding_version,
      launch.integration_access_version,
    ],
  );
  return rows[0];
}

async function findGrant(
  db: Database,
  id: string,
): Promise<{ id: string; expiresAt: Date; revokedAt: Date | null } | undefined> {
  const { rows } = await db.sql.query<{ id: string; expiresAt: Date; revokedAt: Date | null }>(
    `SELECT id, expires_at AS "expiresAt", revoked_at AS "revokedAt" FROM chat_grants WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/**
 * Throws unless the sign-in session is open: checked before any password, so a password's
 * correctness never shows through. Returns whose sign-in it is: the launch's user and the site
 * account linked to them, the only account this sign-in can open.
 */
export async function assertSignInSessionOpen(
  db: Database,
  sessionToken: string,
  clock: Clock = systemClock,
): Promise<{ partnerUserId: string; siteAccountId: string | null }> {
  const session = await loadSession(db, sessionToken, clock());
  if (session.grantId) throw new AppError("unauthorized", "this sign-in session is already complete");
  return { partnerUserId: session.partnerUserId, siteAccountId: session.siteAccountId };
}

async function loadSession(db: Database, sessionToken: string, now: Date) {
  const { rows } = await db.sql.query<{
    id: string;
    launchId: string;
    grantId: string | null;
    expiresAt: Date;
    partnerUserId: string;
    siteAccountId: string | null;
  }>(
    `SELECT s.id, s.launch_id AS "launchId", s.grant_id AS "grantId", s.expires_at AS "expiresAt", s.partner_user_id AS "partnerUserId", u.site_account_id AS "siteAccountId"
     FROM embed_sessions s LEFT JOIN partner_users u ON u.id = s.partner_user_id WHERE s.token_hash = $1`,
    [hashSecret(sessionToken)],
  );
  const session = rows[0];
  if (!session || session.expiresAt <= now)
    throw new AppError("unauthorized", "this sign-in session has expired; request a fresh launch");
  return session;
}

/**
 * The site login succeeded for `siteAccountId` within this session: it must be the user's
 * own linked account. Creates the absolute 24-hour grant.
 */
export async function completeSiteLogin(
  db: Database,
  input: { sessionToken: string; siteAccountId: string },
  clock: Clock = systemClock,
): Promise<{ grantExpiresAt: Date }> {
  const now = clock();
  const session = await loadSession(db, input.sessionToken, now);
  const launch = await loadLaunch(db, session.launchId);
  const { siteAccountId } = await assertStillAuthorized(db, launch);
  if (!siteAccountId || siteAccountId !== input.siteAccountId) {
    throw new AppError("forbidden", "signed in with an account that is not linked to this user");
  }
  const grantId = newId("gr");
  const expiresAt = new Date(now.getTime() + GRANT_HOURS * 3600_000);
  await withTransaction(db, async (tx) => {
    await tx.sql.query(
      `INSERT INTO chat_grants (id, partner_user_id, access_version, account_generation, api_key_id, binding_version, integration_access_version, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        grantId,
        launch.partner_user_id,
        launch.access_version,
        launch.account_generation,
        launch.api_key_id,
        launch.binding_version,
        launch.integration_access_version,
        now,
        expiresAt,
      ],
    );
    await tx.sql.query("UPDATE embed_sessions SET grant_id = $2 WHERE id = $1", [session.id, grantId]);
  });
  return { grantExpiresAt: expiresAt };
}

/** Polled by the chat page: once the session has a grant, it yields one chat token. */
export async function exchangeSessionForChatToken(
  db: Database,
  sessionToken: string,
  clock: Clock = systemClock,
): Promise<{ status: "login_pending" } | { status: "authorized"; chatToken: string; expiresAt: Date }> {
  const now = clock();
  const session = await loadSession(db, sessionToken, now);
  const launch = await loadLaunch(db, session.launchId);
  await assertStillAuthorized(db, launch);
  if (!session.grantId) return { status: "login_pending" };
  const grant = await findGrant(db, session.grantId);
  if (!grant || grant.revokedAt || grant.expiresAt <= now) throw revoked();
  const chatToken = newSecretToken(32);
  const expiresAt = new Date(Math.min(now.getTime() + CHAT_TOKEN_HOURS * 3600_000, grant.expiresAt.getTime()));
  const tokenId = newId("ct");
  const issued = await withTransaction(db, async (tx) => {
    // One token per session: a replayed or concurrent exchange gets nothing.
    const claimed = await tx.sql.query(
      "UPDATE embed_sessions SET chat_token_id = $2 WHERE id = $1 AND chat_token_id IS NULL",
      [session.id, tokenId],
    );
    if (claimed.rowCount !== 1) return false;
    await tx.sql.query(
      "INSERT INTO chat_tokens (id, grant_id, launch_id, partner_user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [tokenId, grant.id, launch.id, launch.partner_user_id, hashSecret(chatToken), now, expiresAt],
    );
    return true;
  });
  if (!issued)
    throw new AppError("unauthorized", "this session already produced its chat token; request a fresh launch");
  return { status: "authorized", chatToken, expiresAt };
}

export interface ChatAuthority {
  partnerUserId: string;
  apiKeyId: string;
  accountGeneration: number;
  launchId: string;
  loanContext: Record<string, unknown>;
  attribution: { public_name: string; integration: string; los_source: string };
  expiresAt: Date;
}

/** Every chat request: the token is unexpired, its grant stands, and nothing revoked the launch. */
export async function verifyChatToken(
  db: Database,
  chatToken: string,
  clock: Clock = systemClock,
): Promise<ChatAuthority> {
  const now = clock();
  const { rows } = await db.sql.query<{ grantId: string; launchId: string; partnerUserId: string; expiresAt: Date }>(
    `SELECT grant_id AS "grantId", launch_id AS "launchId", partner_user_id AS "partnerUserId", expires_at AS "expiresAt" FROM chat_tokens WHERE token_hash = $1`,
    [hashSecret(chatToken)],
  );
  const token = rows[0];
  if (!token || token.expiresAt <= now)
    throw new AppError("unauthorized", "the chat session has ended; request a fresh launch");
  const grant = await findGrant(db, token.grantId);
  if (!grant || grant.revokedAt || grant.expiresAt <= now) throw revoked();
  const launch = await loadLaunch(db, token.launchId);
  await assertStillAuthorized(db, launch);
  return {
    partnerUserId: token.partnerUserId,
    apiKeyId: launch.api_key_id,
    accountGeneration: launch.account_generation,
    launchId: launch.id,
    loanContext: launch.loan_context,
    attribution: launch.attribution,
    expiresAt: token.expiresAt,
  };
}
