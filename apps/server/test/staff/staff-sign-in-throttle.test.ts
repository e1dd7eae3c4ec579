import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createStaff } from "@mga/core/staff";
import { TEST_SECRETS } from "@mga/core/testing";

import { consoleForwardedFor, staffClient } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Staff sign-in against an attacker: parallel guesses, batched guesses, guesses spread over
 * accounts, and the public port. Real server, real PostgreSQL, real concurrency.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { trpc } = staffClient(() => app.adminUrl);
const signIn = (email: string, password: string, address: string) =>
  trpc("staff.signIn", { mutation: true, input: { email, password }, address });
const audit = async (action: string, actor: string) =>
  (await app.t.db.sql.query("SELECT details FROM audit_log WHERE action = $1 AND actor = $2", [action, actor]))
    .rows as Array<{ details: Record<string, unknown> }>;

describe("staff sign-in throttling", () => {
  it("4 rounds of 20 parallel wrong passwords: 5 are checked, the rest refused, and the right password is then refused too", async () => {
    await createStaff(app.t.db, {
      email: "target@mga.test",
      password: "the right password 1",
      role: "admin",
      actor: "test",
    });
    const statuses: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      // Each round from other addresses, so only the account's own limit is in play.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          signIn("target@mga.test", `guess ${round}-${i}`, `203.0.113.${round * 20 + i + 1}`),
        ),
      );
      statuses.push(...results.map((result) => result.status));
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(75);
    const right = await signIn("target@mga.test", "the right password 1", "203.0.113.200");
    expect(right.status).toBe(429);
    expect(right.error?.message).toMatch(/^too many failed attempts; try again in \d+ minutes$/);
    // Audited: every wrong password, and the lock once.
    expect(await audit("staff.sign_in_failed", "target@mga.test")).toHaveLength(5);
    expect(await audit("staff.sign_in_locked", "target@mga.test")).toEqual([
      { details: expect.objectContaining({ by: "account", address: expect.stringMatching(/^203\.0\.113\./) }) },
    ]);
  });

  it("a batch of sign-ins in one HTTP request is refused whole: no password is checked", async () => {
    await createStaff(app.t.db, {
      email: "batch@mga.test",
      password: "the right password 2",
      role: "viewer",
      actor: "test",
    });
    const inputs = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [String(i), { email: "batch@mga.test", password: `guess ${i}` }]),
    );
    const paths = Array.from({ length: 10 }, () => "staff.signIn").join(",");
    const res = await fetch(`${app.adminUrl}/trpc/${paths}?batch=1`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(inputs),
    });
    expect(res.status).toBe(400);
    expect(await audit("staff.sign_in_failed", "batch@mga.test")).toHaveLength(0);
    expect((await signIn("batch@mga.test", "the right password 2", "203.0.113.201")).status).toBe(200);
  });

  it("one address cannot lock every account: after 20 attempts it is refused whatever the account", async () => {
    const emails = Array.from({ length: 25 }, (_, i) => `spray-${i}@mga.test`);
    await createStaff(app.t.db, {
      email: "spared@mga.test",
      password: "the right password 3",
      role: "viewer",
      actor: "test",
    });
    const results = await Promise.all(emails.map((email) => signIn(email, "a guess", "192.0.2.50")));
    expect(results.filter((result) => result.status === 401)).toHaveLength(20);
    expect(results.filter((result) => result.status === 429)).toHaveLength(5);
    // The spared colleague is not locked: from their own address they sign in.
    expect((await signIn("spared@mga.test", "the right password 3", "192.0.2.51")).status).toBe(200);
    // The throttled address is refused even for a right password, before it is checked.
    expect((await signIn("spared@mga.test", "the right password 3", "192.0.2.50")).status).toBe(429);
  });

  it("a locked account and an unknown email get the same answer", async () => {
    await createStaff(app.t.db, {
      email: "real@mga.test",
      password: "the right password 4",
      role: "viewer",
      actor: "test",
    });
    for (const email of ["real@mga.test", "nobody@mga.test"]) {
      for (let i = 0; i < 5; i += 1) expect((await signIn(email, "a guess", `198.51.100.${i + 10}`)).status).toBe(401);
    }
    const [real, unknown] = await Promise.all([
      signIn("real@mga.test", "the right password 4", "198.51.100.30"),
      signIn("nobody@mga.test", "anything", "198.51.100.31"),
    ]);
    expect(real.status).toBe(429);
    expect(unknown.status).toBe(429);
    expect(real.error?.message).toBe(unknown.error?.message);
  });

  it("a successful sign-in clears the account's count", async () => {
    await createStaff(app.t.db, {
      email: "forgetful@mga.test",
      password: "the right password 5",
      role: "viewer",
      actor: "test",
    });
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 4; i += 1)
        expect((await signIn("forgetful@mga.test", "oops", "198.51.100.60")).status).toBe(401);
      expect((await signIn("forgetful@mga.test", "the right password 5", "198.51.100.60")).status).toBe(200);
    }
  });
});

describe("where the staff surface is served", () => {
  it("the public port has no /trpc at all; the admin listener has it", async () => {
    await createStaff(app.t.db, {
      email: "where@mga.test",
      password: "the right password 6",
      role: "viewer",
      actor: "test",
    });
    const onPublic = await fetch(`${app.baseUrl}/trpc/staff.signIn`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "where@mga.test", password: "the right password 6" }),
    });
    expect(onPublic.status).toBe(404);
    expect(onPublic.headers.get("set-cookie")).toBeNull();
    expect((await fetch(`${app.baseUrl}/trpc/system.status`)).status).toBe(404);
    expect((await signIn("where@mga.test", "the right password 6", "198.51.100.70")).status).toBe(200);
  });

  it("the forwarded address is believed only from trusted proxies, and only its last entry", async () => {
    const { clientAddressOf, trustedProxies } = await import("../../src/http/client-address");
    const request = (remoteAddress: string, forwarded?: string) =>
      ({ socket: { remoteAddress }, headers: forwarded ? { "x-forwarded-for": forwarded } : {} }) as never;
    const proxyOnThisMachine = trustedProxies("127.0.0.1");
    expect(clientAddressOf(request("127.0.0.1", "10.0.0.1, 203.0.113.9"), proxyOnThisMachine)).toBe("203.0.113.9");
    expect(clientAddressOf(request("203.0.113.1", "10.9.9.9"), proxyOnThisMachine)).toBe("203.0.113.1");
    expect(clientAddressOf(request("203.0.113.1", "10.9.9.9"), trustedProxies(""))).toBe("203.0.113.1");
    expect(clientAddressOf(request("127.0.0.1", "not an address"), proxyOnThisMachine)).toBe("127.0.0.1");
    const proxies = trustedProxies("10.0.0.0/8, 2001:db8::1");
    expect(clientAddressOf(request("10.1.2.3", "198.51.100.4"), proxies)).toBe("198.51.100.4");
    expect(clientAddressOf(request("::ffff:10.1.2.3", "198.51.100.4"), proxies)).toBe("198.51.100.4");
    expect(clientAddressOf(request("2001:db8::1", "198.51.100.5"), proxies)).toBe("198.51.100.5");
    expect(clientAddressOf(request("11.0.0.1", "198.51.100.4"), proxies)).toBe("11.0.0.1");
    expect(() => trustedProxies("true")).toThrow(/not an address/);
  });

  it("an IPv6 client is counted by its /64: rotating addresses inside it does not help", async () => {
    const { addressBucket } = await import("@mga/core/sign-ins");
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe(addressBucket("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"));
    expect(addressBucket("2001:db8:1:2::9")).not.toBe(addressBucket("2001:db8:1:3::9"));
    expect(addressBucket("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    await createStaff(app.t.db, {
      email: "v6@mga.test",
      password: "the right password 7",
      role: "viewer",
      actor: "test",
    });
    const results = await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        signIn(`v6-${i}@mga.test`, "a guess", `2001:db8:42:7::${(i + 1).toString(16)}`),
      ),
    );
    expect(results.filter((result) => result.status === 401)).toHaveLength(20);
    expect(results.filter((result) => result.status === 429)).toHaveLength(2);
  });
});

// Last: the first test spends this machine's own address's sign-in budget. It follows other
// requests at once: a pause near the server's 5 s keep-alive lets fetch reuse a closing socket.
describe("the visitor's address on the admin listener", () => {
  it("a process on this machine cannot pick its address: a forged X-Forwarded-For counts against loopback, a stale signature too", async () => {
    const attempt = (email: string, headers: Record<string, string>) =>
      fetch(`${app.adminUrl}/trpc/staff.signIn`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ email, password: "a guess" }),
      });
    const forged = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        attempt(`forger-${i}@mga.test`, { "X-Forwarded-For": `203.0.113.${i + 1}` }),
      ),
    );
    expect(forged.filter((res) => res.status === 401)).toHaveLength(20);
    expect(forged.filter((res) => res.status === 429)).toHaveLength(1);
    // The parallel attempts arrive in any order: the one refused at the limit has no audit entry.
    const checked = forged.findIndex((res) => res.status === 401);
    expect((await audit("staff.sign_in_failed", `forger-${checked}@mga.test`))[0]?.details.address).toBe("127.0.0.1");
    // Nor does a captured signature once it is old, or with the address changed.
    const stale = consoleForwardedFor("198.51.100.90", Date.now() - 60_000);
    expect((await attempt("stale@mga.test", { "X-Console-Forwarded-For": stale })).status).toBe(429);
    expect(
      (
        await attempt("tampered@mga.test", {
          "X-Console-Forwarded-For": consoleForwardedFor("198.51.100.91").replace("198.51.100.91", "198.51.100.92"),
        })
      ).status,
    ).toBe(429);
    // The console's visitors are counted apart from it.
    expect((await signIn("visitor@mga.test", "a guess", "198.51.100.93")).status).toBe(401);
    expect((await audit("staff.sign_in_failed", "visitor@mga.test"))[0]?.details.address).toBe("198.51.100.93");
  });

  it("is the console's signed one, from any peer; an old, tampered, foreign or malformed signature is ignored", async () => {
    const { clientAddressOf, trustedProxies } = await import("../../src/http/client-address");
    const key = TEST_SECRETS.macKey("console-forwarding");
    const request = (remoteAddress: string, header: string) =>
      ({ socket: { remoteAddress }, headers: { "x-console-forwarded-for": header } }) as never;
    const none = trustedProxies("");
    const from = (header: string, peer = "127.0.0.1") => clientAddressOf(request(peer, header), none, key);
    const genuine = consoleForwardedFor("203.0.113.9");
    expect(from(genuine)).toBe("203.0.113.9");
    expect(from(consoleForwardedFor("2001:db8::7"))).toBe("2001:db8::7");
    // A console deployed on another host needs no TRUST_PROXY entry: the signature is the proof.
    expect(from(genuine, "10.0.0.5")).toBe("203.0.113.9");
    // Believed 30 s either side of its time, no longer.
    expect(from(consoleForwardedFor("203.0.113.9", Date.now() - 25_000))).toBe("203.0.113.9");
    expect(from(consoleForwardedFor("203.0.113.9", Date.now() - 35_000))).toBe("127.0.0.1");
    expect(from(consoleForwardedFor("203.0.113.9", Date.now() + 35_000))).toBe("127.0.0.1");
    const [, seconds, mac] = genuine.split(";");
    expect(from(`203.0.113.10;${seconds};${mac}`)).toBe("127.0.0.1");
    expect(from(`203.0.113.9;${Number(seconds) - 1};${mac}`)).toBe("127.0.0.1");
    expect(from(`203.0.113.9;${seconds};${mac?.slice(0, -2)}`)).toBe("127.0.0.1");
    expect(from(consoleForwardedFor("203.0.113.9", Date.now(), Buffer.alloc(32)))).toBe("127.0.0.1");
    // Another purpose's key of the same SECRET_KEY (a cursor's MAC) is not the console's.
    expect(from(`203.0.113.9;${seconds};${TEST_SECRETS.sign("cursor", `203.0.113.9;${seconds}`)}`)).toBe("127.0.0.1");
    for (const junk of [
      "",
      "203.0.113.9",
      "203.0.113.9;;",
      `${genuine};x`,
      `not-an-address;${seconds};${mac}`,
      `203.0.113.9;1e3;${mac}`,
      `203.0.113.9;${"9".repeat(40)};${mac}`,
    ]) {
      expect(from(junk), junk).toBe("127.0.0.1");
    }
    // Whatever else a client writes there is its own address, never an error.
    fc.assert(fc.property(fc.string({ unit: "binary" }), (junk) => from(junk) === "127.0.0.1"));
    // The public listener has no console: it ignores the header.
    expect(clientAddressOf(request("127.0.0.1", genuine), none)).toBe("127.0.0.1");
  });
});
