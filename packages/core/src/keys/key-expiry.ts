import { AppError } from "../errors/app-error";

/** The furthest ahead a key's expiry may be set at creation (docs/decisions.md, key lifecycle). */
export const MAX_KEY_LIFETIME_DAYS = 365;
/** How long a rolled key may keep working beside its successor: from now (0) up to seven days. */
export const MAX_ROLL_OVERLAP_SECONDS = 7 * 24 * 60 * 60;
/** How far ahead the console and the "key expiring" event look by default. */
export const EXPIRING_SOON_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Past its expiry (the hot path's check: the clock against the cached record, no database read). */
export function isExpired(expiresAt: Date | null, now = Date.now()): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now;
}

/** The 401 message of an expired key: the spec's `unauthorized` code, and a message that says why. */
export function expiredKeyMessage(expiresAt: Date): string {
  return `this API key expired at ${expiresAt.toISOString()}`;
}

/** An expiry chosen at creation (or for a roll's successor): in the future and at most MAX_KEY_LIFETIME_DAYS ahead. */
export function assertNewKeyExpiry(expiresAt: Date | null, now = Date.now()): void {
  if (expiresAt === null) return;
  if (Number.isNaN(expiresAt.getTime()))
    throw new AppError("invalid_request", "expires_at: must be a date-time", { field: "expires_at" });
  if (expiresAt.getTime() <= now)
    throw new AppError("invalid_request", "expires_at: must be in the future", { field: "expires_at" });
  if (expiresAt.getTime() > now + MAX_KEY_LIFETIME_DAYS * DAY_MS) {
    throw new AppError("invalid_request", `expires_at: must be at most ${MAX_KEY_LIFETIME_DAYS} days ahead`, {
      field: "expires_at",
    });
  }
}

/** The overlap a roll leaves the old key: a whole number of seconds from 0 (now) to MAX_ROLL_OVERLAP_SECONDS. */
export function assertRollOverlap(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_ROLL_OVERLAP_SECONDS) {
    throw new AppError(
      "invalid_request",
      `old_key_expires_in_seconds: must be a whole number from 0 (now) to ${MAX_ROLL_OVERLAP_SECONDS} (7 days)`,
      {
        field: "old_key_expires_in_seconds",
      },
    );
  }
}
