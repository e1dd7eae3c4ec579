import type { Database } from "../db/database";
import { startNotificationListener } from "../db/notification-listener";
import { NO_OBSERVER, type Observer } from "../observe/observer";
import { KeyCache, type KeyCacheOptions } from "./key-cache";
import { KEY_CHANGES_CHANNEL, parseKeyChange } from "./key-changes";

export interface RunningKeyCache {
  /** Resolves once LISTEN is in force (until then every request reads the database). */
  readonly ready: Promise<void>;
  /** True while LISTEN is in force, so the cache answers. */
  readonly listening: boolean;
  /** The LISTEN connection's backend process, for tests that cut it. */
  readonly listenerPid: number | undefined;
  readonly cache: KeyCache;
  stop(): Promise<void>;
}

/**
 * Caches verified keys for the requests authenticated through `db` (the server's main does
 * this), kept true across instances by LISTEN on a dedicated connection to `url`: each change
 * drops what it touches at once; a lost connection drops everything and turns the cache off
 * until LISTEN is in force again.
 */
export function startKeyCache(
  db: Database,
  url: string,
  options: Partial<KeyCacheOptions> = {},
  observer: Pick<Observer, "keyCacheLookup"> = NO_OBSERVER,
): RunningKeyCache {
  if (db.instance.keyCache) throw new Error("a key cache is already running for this database handle");
  const cache = new KeyCache(options, observer);
  db.instance.keyCache = cache;
  const listener = startNotificationListener(
    url,
    [KEY_CHANGES_CHANNEL],
    {
      onNotification: (_channel, payload) => cache.apply(parseKeyChange(payload)),
      onListening: () => cache.setServing(true),
      onLost: () => cache.setServing(false),
    },
    { applicationName: "mga key cache" },
  );
  return {
    ready: listener.ready,
    get listening() {
      return listener.listening;
    },
    get listenerPid() {
      return listener.backendPid;
    },
    cache,
    async stop() {
      if (db.instance.keyCache === cache) db.instance.keyCache = undefined;
      cache.setServing(false);
      await listener.stop();
    },
  };
}
