import { LRUCache } from "lru-cache";

import { NO_OBSERVER, type Observer } from "../observe/observer";
import type { AuthenticatedKey } from "./authenticate-api-key";
import type { KeyChange } from "./key-changes";

/** What looking up a secret hash found: the active key, or the reason it is refused. */
export type KeyLookup = { key: AuthenticatedKey } | { refusal: string };

/** The cache's generation when a database read began. */
export interface KeyCacheTicket {
  keyEpoch: number;
  refusalEpoch: number;
}

export interface KeyCacheOptions {
  /** Active keys held (least recently used go first). */
  maxKeys: number;
  /** The safety net for a missed notification: an entry is read again from the database after this. */
  ttlMs: number;
  /** Refused hashes held (unknown or revoked keys). */
  maxRefusals: number;
  /** How long a refusal is remembered: an unknown key reaches the database at most once per this interval. */
  refusalTtlMs: number;
}

export const KEY_CACHE_DEFAULTS: KeyCacheOptions = {
  maxKeys: 10_000,
  ttlMs: 30_000,
  maxRefusals: 10_000,
  refusalTtlMs: 5_000,
};

/**
 * One instance's verified keys by secret hash (with organization and tenant configuration),
 * and its recent refusals. It answers only while its owner says the invalidations reach it
 * (`setServing`, driven by the LISTEN connection); every change drops the entries it touches.
 */
export class KeyCache {
  private readonly keys: LRUCache<string, AuthenticatedKey>;
  private readonly refusals: LRUCache<string, string>;
  /**
   * Bumped by every invalidation of keys (`keyEpoch`) or of refusals (`refusalEpoch`, a key was
   * created). A database read that began before one may have seen the old state, so its result
   * is not stored (`remember` with a stale ticket does nothing).
   */
  private keyEpoch = 0;
  private refusalEpoch = 0;
  private serving = false;
  /**
   * Database reads under way, by hash: concurrent misses of one key share one read, so a burst
   * on a cold key (after a deploy, or a TTL expiry) costs one query, not one per request.
   * Every invalidation empties it, so no request that arrives after a change joins a read
   * that began before it.
   */
  private readonly reads = new Map<string, Promise<KeyLookup>>();
  /**
   * Tells this host's other worker processes of a change made here (WORKERS: their caches hold
   * the same keys) and resolves once they have applied it, or gave no answer in time; set by the
   * host (`setSiblings`: apps/server's cluster/key-change-relay.ts). Never rejects.
   */
  private siblings: ((change: KeyChange) => Promise<void>) | undefined;

  constructor(
    options: Partial<KeyCacheOptions> = {},
    /** Told of each lookup's outcome (the host's key-cache hit and miss counters). */
    private readonly observer: Pick<Observer, "keyCacheLookup"> = NO_OBSERVER,
  ) {
    const settings = { ...KEY_CACHE_DEFAULTS, ...options };
    this.keys = new LRUCache({ max: settings.maxKeys, ttl: settings.ttlMs });
    this.refusals = new LRUCache({ max: settings.maxRefusals, ttl: settings.refusalTtlMs });
  }

  get(hash: string): KeyLookup | undefined {
    if (!this.serving) return undefined;
    const key = this.keys.get(hash);
    if (key) return { key };
    const refusal = this.refusals.get(hash);
    return refusal === undefined ? undefined : { refusal };
  }

  /** True when an active key with this hash is cached and served (no lookup counted, no recency changed). */
  holds(hash: string): boolean {
    return this.serving && this.keys.has(hash);
  }

  /** The cached answer, else the result of `read` (shared with every concurrent miss of the same hash), remembered. */
  lookUp(hash: string, read: () => Promise<KeyLookup>): Promise<KeyLookup> {
    const cached = this.get(hash);
    this.observer.keyCacheLookup(cached !== undefined);
    if (cached) return Promise.resolve(cached);
    if (!this.serving) return read();
    const underWay = this.reads.get(hash);
    if (underWay) return underWay;
    const ticket = this.ticket();
    const reading = read()
      .then((found) => {
        // Handed to every request that joined the read, stored or not: none may change it for the others.
        if ("key" in found) deepFreeze(found.key);
        this.remember(hash, found, ticket);
        return found;
      })
      .finally(() => {
        if (this.reads.get(hash) === reading) this.reads.delete(hash);
      });
    this.reads.set(hash, reading);
    return reading;
  }

  /** Taken before reading the database; handed back to `remember`. */
  private ticket(): KeyCacheTicket {
    return { keyEpoch: this.keyEpoch, refusalEpoch: this.refusalEpoch };
  }

  private remember(hash: string, found: KeyLookup, ticket: KeyCacheTicket): void {
    if (!this.serving) return;
    if ("key" in found) {
      if (ticket.keyEpoch === this.keyEpoch) this.keys.set(hash, deepFreeze(found.key));
    } else if (ticket.refusalEpoch === this.refusalEpoch) {
      this.refusals.set(hash, found.refusal);
    }
  }

  /** Drops what a change touches; a payload it cannot read (undefined) drops everything. */
  apply(change: KeyChange | undefined): void {
    if (!change) return this.clear();
    this.reads.clear();
    if (change.kind === "key_created") {
      this.refusalEpoch += 1;
      return this.refusals.clear();
    }
    this.keyEpoch += 1;
    for (const [hash, key] of this.keys.entries()) {
      if (change.kind === "key" ? key.id === change.id : key.organizationId === change.id) this.keys.delete(hash);
    }
  }

  /** Set by the host: how a change made here reaches its sibling processes' caches before the change's caller is answered. */
  setSiblings(siblings: ((change: KeyChange) => Promise<void>) | undefined): void {
    this.siblings = siblings;
  }

  /** A change made in this process, told to the sibling processes (none: resolved at once). */
  async tellSiblings(change: KeyChange): Promise<void> {
    await this.siblings?.(change).catch(() => {});
  }

  /** On (LISTEN in force) or off (its connection was lost); either way it starts empty. */
  setServing(serving: boolean): void {
    this.clear();
    this.serving = serving;
  }

  get size(): number {
    return this.keys.size + this.refusals.size;
  }

  private clear(): void {
    this.reads.clear();
    this.keyEpoch += 1;
    this.refusalEpoch += 1;
    this.keys.clear();
    this.refusals.clear();
  }
}

/** One record is handed to every request that presents the key: none of them may change it for the others. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
