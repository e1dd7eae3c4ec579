import net from "node:net";

/**
 * Ports handed out below Linux's ephemeral range (32768-60999 by default). A port the OS picks
 * for `listen(0)` comes from that range, so between the probe's close and the real listen an
 * outgoing connection (the server's own PostgreSQL pool) may take it as its local port, and the
 * listen fails with EADDRINUSE: it happened to CI's smoke run.
 */
const LOW = 20_000;
const HIGH = 32_767;
const ATTEMPTS = 50;

/** A port on 127.0.0.1 nothing listens on now, for a process started next (tests, smoke runs, the bench). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await canListen(port)) return port;
  }
  // A machine with all of those taken: the OS's choice, as before.
  return listenOn(0);
}

function canListen(port: number): Promise<boolean> {
  return listenOn(port).then(
    () => true,
    () => false,
  );
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : port));
    });
  });
}
