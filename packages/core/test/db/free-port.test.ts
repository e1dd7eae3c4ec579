import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";

import { freePort, freePorts } from "../../src/db/free-port";

const listen = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

describe("freePort", () => {
  afterEach(() => vi.restoreAllMocks());

  it("gives ports below the ephemeral range that a server can then listen on", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      // Linux hands out 32768 and up to outgoing connections: a port there can be taken before the listen.
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
    const server = await listen(ports[0]!);
    server.close();
  });

  it("gives the embedded PostgreSQL ports no listener is ever given", async () => {
    // A run command picks its listeners' ports, then the server starts its cluster before listening:
    // the cluster must not be able to take one of them in between.
    const listeners = await Promise.all(Array.from({ length: 20 }, () => freePort("listener")));
    const databases = await Promise.all(Array.from({ length: 20 }, () => freePort("database")));
    for (const port of listeners) expect(port).toBeLessThan(29_000);
    for (const port of databases) expect(port).toBeGreaterThanOrEqual(29_000);
    for (const port of databases) expect(port).toBeLessThan(32_768);
  });

  it("gives several ports at once, never the same one twice", async () => {
    // Every draw lands on the same port: only holding the ports already chosen keeps them apart.
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const ports = await freePorts(3);
    expect(new Set(ports).size).toBe(3);
    const servers = await Promise.all(ports.map(listen));
    for (const server of servers) server.close();
  });

  it("never gives a port something listens on", async () => {
    const taken = await listen(0);
    const takenPort = (taken.address() as net.AddressInfo).port;
    try {
      // Hold many low ports, one after another, then ask: the answer is none of them.
      const held: net.Server[] = [];
      for (let i = 0; i < 50; i++) held.push(await listen(await freePort()));
      const heldPorts = new Set(held.map((server) => (server.address() as net.AddressInfo).port));
      const port = await freePort();
      expect(heldPorts.has(port)).toBe(false);
      expect(port).not.toBe(takenPort);
      for (const server of held) server.close();
    } finally {
      taken.close();
    }
  });
});
