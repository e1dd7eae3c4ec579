import { describe, expect, it } from "vitest";

import { isPublicAddress } from "../../src/webhooks/address-rules";
import { RETRY_DELAYS_MS, withJitter } from "../../src/webhooks/webhook-options";

describe("webhook address rules", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "255.255.255.255",
    "224.0.0.1",
    "192.0.2.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "2002:7f00:1::",
    "64:ff9b::7f00:1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "allows %s",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("retry schedule", () => {
  it("spreads retries over about 24 hours, each within ±20% of its delay", () => {
    const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3600_000).toBeGreaterThan(23);
    expect(total / 3600_000).toBeLessThanOrEqual(24);
    expect(withJitter(1000, () => 0)).toBe(800);
    expect(withJitter(1000, () => 0.999999)).toBe(1200);
  });
});
