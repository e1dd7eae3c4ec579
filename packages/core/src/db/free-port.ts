import net from "node:net";

/**
 * Ports handed out below Linux's ephemeral range (32768-60999 by default). A port the OS picks
 * for `listen(0)` comes from that range, so between the probe's close and the real listen an
 * outgoing connection (the server's own PostgreSQL pool) may take it as its local port, and the
 * listen fails with EADDRINUSE: it happened to CI's smoke run.
 *
 * Listeners and the embedded PostgreSQL draw from two separate bands. A run command chooses its
 * listeners' ports first and the server starts its cluster before it listens on them; had the
 * cluster drawn from the same band it could take one of those ports in between (it happened to
 * CI's README smoke run).
 */
const BANDS = {
  listener: [20_000, 28_999],
  database: [29_000, 32_767],
} as const;
export type PortBand = keyof typeof BANDS;
const ATTEMPTS = 50;

/** A port on 127.0.0.1 nothing listens on now, for a process started next (tests, smoke runs, the bench). */
export async function freePort(band: PortBand = "listener"): Promise<number> {
  const [port] = await freePorts(1, band);
  return port!;
}

/**
 * `count` distinct free ports, for one process that starts several listeners: each is held
 * until all are chosen, so no two answers are the same port.
 */
export async function freePorts(count: number, band: PortBand = "listener"): Promise<number[]> {
  const [low, high] = BANDS[band];
  const held: net.Server[] = [];
  try {
    for (let attempt = 0; held.length < count && attempt < ATTEMPTS * count; attempt++) {
      const server = await listenOn(low + Math.floor(Math.random() * (high - low + 1))).catch(() => undefined);
      if (server) held.push(server);
    }
    // A machine with all of those taken: the OS's choice, as before.
    while (held.length < count) held.push(await listenOn(0));
    return held.map(portOf);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

function portOf(server: net.Server): number {
  const address = server.address();
  if (typeof address === "object" && address) return address.port;
  throw new Error("a TCP listener without a port");
}
