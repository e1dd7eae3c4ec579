import pg from "pg";

/** What a listener tells its owner. */
export interface NotificationHandlers {
  /** A notification on one of the channels (delivered only once the publishing transaction committed). */
  onNotification(channel: string, payload: string): void;
  /** LISTEN is in force (at the first connection and after every reconnection). */
  onListening(): void;
  /** The connection is gone: notifications may have been missed since it was last known alive. */
  onLost(): void;
}

export interface NotificationListener {
  /** True while LISTEN is in force on a live connection. */
  readonly listening: boolean;
  /** The backend process of the current connection (tests terminate it to simulate a lost connection). */
  readonly backendPid: number | undefined;
  /** Resolves once LISTEN is first in force. */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/** Waits between reconnection attempts: doubled after each failure, up to the maximum. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * LISTENs on `channels` over a dedicated connection, never one of the query pool's (a pooled
 * connection is handed to other work between queries, and LISTEN belongs to one session).
 * When the connection is lost the owner hears `onLost` at once, and the listener reconnects
 * with backoff until `stop`.
 */
export function startNotificationListener(
  url: string,
  channels: readonly string[],
  handlers: NotificationHandlers,
  options: { applicationName?: string } = {},
): NotificationListener {
  let client: pg.Client | undefined;
  let listening = false;
  let backendPid: number | undefined;
  let stopped = false;
  let retryMs = RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const lose = (lost: pg.Client) => {
    if (lost !== client) return;
    client = undefined;
    backendPid = undefined;
    const wasListening = listening;
    listening = false;
    lost.removeAllListeners("notification");
    void lost.end().catch(() => {});
    if (wasListening) handlers.onLost();
    scheduleConnect();
  };

  const scheduleConnect = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      application_name: options.applicationName ?? "notification-listener",
    });
    client = next;
    // Without an "error" listener a dropped connection would crash the process.
    next.on("error", () => lose(next));
    next.on("end", () => lose(next));
    next.on("notification", (message) => {
      if (channels.includes(message.channel)) handlers.onNotification(message.channel, message.payload ?? "");
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
      const { rows } = await next.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      if (next !== client || stopped) return;
      backendPid = rows[0]?.pid;
      listening = true;
      retryMs = RETRY_FIRST_MS;
      handlers.onListening();
      markReady();
    } catch {
      lose(next);
    }
  };

  void connect();
  return {
    get listening() {
      return listening;
    },
    get backendPid() {
      return backendPid;
    },
    ready,
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      listening = false;
      await current?.end().catch(() => {});
    },
  };
}
