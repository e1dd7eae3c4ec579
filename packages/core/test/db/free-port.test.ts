import net from "node:net";
import { describe, expect, it } from "vitest";

import { freePort } from "../../src/db/free-port";

const listen = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

describe("freePort", () => {
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
