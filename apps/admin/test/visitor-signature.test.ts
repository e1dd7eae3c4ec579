import { randomBytes } from "node:crypto";
import { parseConsoleEnv } from "@/env";
import { signVisitor, VISITOR_HEADER } from "@/lib/visitor-signature";
import { describe, expect, it } from "vitest";

import { consoleVisitorOf } from "@mga/server/src/http/client-address";

/**
 * The console signs its visitor's address (lib/visitor-signature.ts) and the API checks it
 * (consoleVisitorOf): two small implementations of one format, which this test holds together.
 */
describe("the visitor address the console signs", () => {
  const key = randomBytes(32).toString("base64url");
  const apiKey = Buffer.from(key, "base64url");

  it("is believed by the API with the same key, for 30 seconds either side", () => {
    expect(VISITOR_HEADER.toLowerCase()).toBe("x-console-forwarded-for");
    // The key as `pnpm cli console:forwarding-key` prints it passes the console's configuration.
    expect(parseConsoleEnv({ ADMIN_FORWARDING_KEY: key }).ADMIN_FORWARDING_KEY).toBe(key);
    const now = Date.now();
    for (const address of ["203.0.113.7", "2001:db8::42", "::ffff:192.0.2.1"])
      expect(consoleVisitorOf(signVisitor(address, key, now), apiKey, now)).toBe(address);
    expect(consoleVisitorOf(signVisitor("203.0.113.7", key, now - 29_000), apiKey, now)).toBe("203.0.113.7");
    expect(consoleVisitorOf(signVisitor("203.0.113.7", key, now - 31_000), apiKey, now)).toBeUndefined();
    expect(consoleVisitorOf(signVisitor("203.0.113.7", key, now + 31_000), apiKey, now)).toBeUndefined();
  });

  it("is refused by the API with another key or once altered", () => {
    const header = signVisitor("203.0.113.7", key);
    expect(consoleVisitorOf(header, randomBytes(32))).toBeUndefined();
    expect(consoleVisitorOf(header.replace("203.0.113.7", "203.0.113.8"), apiKey)).toBeUndefined();
    // What server.mjs forwards when it knows no address is no address to the API either.
    expect(consoleVisitorOf(signVisitor("unknown", key), apiKey)).toBeUndefined();
  });
});
