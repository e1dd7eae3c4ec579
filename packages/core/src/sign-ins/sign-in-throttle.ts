import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";

/**
 * Throttles every human sign-in and every page that checks a secret a person holds, with
 * rate-limiter-flexible's PostgreSQL store (one statement increments a counter and returns it,
 * so parallel attempts cannot overwrite each other, and every instance shares the count):
 *
 * - per client address: counted first; an attempt it refuses counts nowhere else, so one
 *   client cannot lock more than a few accounts either.
 * - per account (the email typed at the staff sign-in and the password reset, whether or not
 *   an account has it; the launch's user at the site login): a few attempts per window, then
 *   the account is locked until the window ends. A known locked account and an unknown email
 *   answer alike, at the same speed: the lock is decided before any password is checked.
 *
 * An attempt is counted before the secret is checked, so a burst of parallel guesses gets no
 * more checks than the limit. Success forgives: the account's count is cleared and the
 * address gets its point back.
 */
export type SignInSurface =
  "staff" | "staff-invite" | "site-login" | "site-password-setup" | "site-password-reset" | "site-email-verification";

interface Limit {
  attempts: number;
  windowSeconds: number;
}

export const SIGN_IN_LIMITS: Record<SignInSurface, { account?: Limit; address: Limit }> = {
  staff: { account: { attempts: 5, windowSeconds: 15 * 60 }, address: { attempts: 20, windowSeconds: 15 * 60 } },
  "site-login": { account: { attempts: 5, windowSeconds: 15 * 60 }, address: { attempts: 30, windowSeconds: 15 * 60 } },
  // Tokens are long and random: these pages are throttled per address only, against scanning
  // and against spending a password hash per request.
  "site-password-setup": { address: { attempts: 20, windowSeconds: 15 * 60 } },
  "site-email-verification": { address: { attempts: 20, windowSeconds: 15 * 60 } },
  // Each request sends an email: few per address, and per address asked about.
  "site-password-reset": {
    account: { attempts: 3, windowSeconds: 60 * 60 },
    address: { attempts: 10, windowSeconds: 60 * 60 },
  },
  "staff-invite": { address: { attempts: 20, windowSeconds: 15 * 60 } },
};

/** Where the counters live (created by a migration; the library's own table layout). */
const TABLE = "sign_in_throttle";

export interface SignInAttempt {
  /** The secret was right: clears the account's count and returns the address's point. */
  succeeded(): Promise<void>;
}

/** Why an attempt was refused, for the audit log; `first` is true only for the attempt that crossed the limit. */
export interface Refusal {
  by: "account" | "address";
  first: boolean;
  retryAfterSeconds: number;
}

export class SignInThrottled extends AppError {
  constructor(readonly refusal: Refusal) {
    super("rate_limited", `too many failed attempts; try again in ${inWords(refusal.retryAfterSeconds)}`, {
      headers: { "Retry-After": String(refusal.retryAfterSeconds) },
    });
  }
}

function inWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

function limiter(db: Database, surface: SignInSurface, by: "account" | "address"): RateLimiterPostgres | undefined {
  const limit = SIGN_IN_LIMITS[surface][by];
  if (!limit) return undefined;
  const byName = db.instance.signInLimiters;
  const name = `${surface}:${by}`;
  let found = byName.get(name);
  if (!found) {
    found = new RateLimiterPostgres({
      // "pool": the limiter only calls query(), which `sql` is.
      storeClient: db.sql,
      storeType: "pool",
      tableName: TABLE,
      tableCreated: true,
      keyPrefix: name,
      points: limit.attempts,
      duration: limit.windowSeconds,
    });
    byName.set(name, found);
  }
  return found;
}

/** Keys are digests: the table never holds an email or an address. */
const keyOf = (value: string) => createHash("sha256").update(value).digest("base64url");
const accountKey = (account: string) => keyOf(account);
const addressKey = (address: string) => keyOf(addressBucket(address));

/**
 * What one client controls: an IPv4 address, or an IPv6 /64 (one network hands its hosts a
 * whole /64, so counting single IPv6 addresses would let a client rotate past any limit).
 */
export function addressBucket(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  if (isIP(plain) !== 6) return plain;
  const [head = "", tail = ""] = plain.toLowerCase().split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = plain.includes("::") ? [...front, ...Array(8 - front.length - back.length).fill("0"), ...back] : front;
  return `${groups
    .slice(0, 4)
    .map((group) => String(Number.parseInt(group || "0", 16).toString(16)))
    .join(":")}::/64`;
}

/**
 * Counts one attempt and throws SignInThrottled, before any secret is checked, when it is over
 * a limit. The address is counted first and an attempt it refuses stops there: it never reaches
 * the account's count, so a client past its own limit cannot go on adding failures to accounts
 * it names (and lock out their owners, who sign in from elsewhere). `account` names the account
 * as the caller normalized it (a lower-cased email, a user's id), if the surface has one.
 */
export async function beginSignInAttempt(
  db: Database,
  surface: SignInSurface,
  who: { account?: string | undefined; address: string },
): Promise<SignInAttempt> {
  const byAddress = limiter(db, surface, "address") as RateLimiterPostgres;
  await consumeOrThrow(byAddress, addressKey(who.address), surface, "address");
  const byAccount = who.account === undefined ? undefined : limiter(db, surface, "account");
  if (byAccount) await consumeOrThrow(byAccount, accountKey(who.account as string), surface, "account");
  return {
    async succeeded() {
      await Promise.all([
        byAccount?.delete(accountKey(who.account as string)),
        byAddress.reward(addressKey(who.address)),
      ]);
    },
  };
}

async function consumeOrThrow(
  counter: RateLimiterPostgres,
  key: string,
  surface: SignInSurface,
  by: "account" | "address",
): Promise<void> {
  try {
    await counter.consume(key);
  } catch (refused) {
    if (!(refused instanceof RateLimiterRes)) throw refused;
    const limit = SIGN_IN_LIMITS[surface][by] as Limit;
    throw new SignInThrottled({
      by,
      first: refused.consumedPoints === limit.attempts + 1,
      retryAfterSeconds: Math.max(1, Math.ceil(refused.msBeforeNext / 1000)),
    });
  }
}

/** Until when an account is locked out of a surface, if it is (the console shows it). */
export async function lockedUntil(db: Database, surface: SignInSurface, account: string): Promise<Date | null> {
  const byAccount = limiter(db, surface, "account");
  const state = await byAccount?.get(accountKey(account));
  const limit = SIGN_IN_LIMITS[surface].account;
  if (!state || !limit || state.consumedPoints < limit.attempts) return null;
  return new Date(Date.now() + state.msBeforeNext);
}

/** Lifts an account's lockout (an admin re-enables a colleague). */
export async function clearSignInLock(db: Database, surface: SignInSurface, account: string): Promise<void> {
  await limiter(db, surface, "account")?.delete(accountKey(account));
}
