import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { MgaError, webhooks, WebhookVerificationError } from "../src/index";

/**
 * The Standard Webhooks specification's published test vector (spec/standard-webhooks.md, and the
 * tests of its reference libraries): this secret, id, timestamp and body sign to this signature.
 */
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const headers = (overrides: Record<string, string> = {}) => ({
  "webhook-id": VECTOR.id,
  "webhook-timestamp": String(VECTOR.timestamp),
  "webhook-signature": VECTOR.signature,
  ...overrides,
});

describe("webhooks.verify", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(VECTOR.timestamp * 1000 + 10_000));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("accepts the specification's test vector and returns the parsed body", () => {
    expect(webhooks.verify(VECTOR.payload, headers(), VECTOR.secret)).toEqual({ test: 2432232314 });
  });

  it("accepts a Buffer body, Fetch Headers, Node's header arrays and any header case", () => {
    expect(webhooks.verify(Buffer.from(VECTOR.payload), new Headers(headers()), VECTOR.secret)).toEqual({
      test: 2432232314,
    });
    const node = {
      "Webhook-Id": [VECTOR.id],
      "WEBHOOK-TIMESTAMP": String(VECTOR.timestamp),
      "webhook-signature": [VECTOR.signature],
      other: undefined,
    };
    expect(webhooks.verify(VECTOR.payload, node, VECTOR.secret)).toEqual({ test: 2432232314 });
  });

  it("accepts the vector among several signatures (a secret roll) and a secret given without its prefix", () => {
    const other = `v1,${createHmac("sha256", Buffer.alloc(32, 7)).update("x").digest("base64")}`;
    expect(
      webhooks.verify(VECTOR.payload, headers({ "webhook-signature": `${other} ${VECTOR.signature}` }), VECTOR.secret),
    ).toEqual({ test: 2432232314 });
    expect(webhooks.verify(VECTOR.payload, headers(), VECTOR.secret.slice("whsec_".length))).toEqual({
      test: 2432232314,
    });
  });

  it.each([
    ["a changed body", { payload: '{"test": 2432232315}' }],
    ["another id", { headers: { "webhook-id": "msg_other" } }],
    ["another timestamp", { headers: { "webhook-timestamp": String(VECTOR.timestamp + 1) } }],
    ["a signature of another secret", { secret: "whsec_c2VjcmV0LW9mLWFub3RoZXItZW5kcG9pbnQ=" }],
    ["a signature of another version", { headers: { "webhook-signature": VECTOR.signature.replace("v1,", "v2,") } }],
    ["no signature header", { headers: { "webhook-signature": "" } }],
  ])("refuses %s", (_, change: { payload?: string; headers?: Record<string, string>; secret?: string }) => {
    const call = () =>
      webhooks.verify(change.payload ?? VECTOR.payload, headers(change.headers), change.secret ?? VECTOR.secret);
    expect(call).toThrow(WebhookVerificationError);
    expect(call).toThrow(MgaError);
    expect(call).toThrow(/^webhook not verified: /);
  });

  it("refuses the vector when the clock is more than 5 minutes from its timestamp (a replay)", () => {
    vi.setSystemTime(new Date((VECTOR.timestamp + 6 * 60) * 1000));
    expect(() => webhooks.verify(VECTOR.payload, headers(), VECTOR.secret)).toThrow(/timestamp too old/i);
    vi.setSystemTime(new Date((VECTOR.timestamp - 6 * 60) * 1000));
    expect(() => webhooks.verify(VECTOR.payload, headers(), VECTOR.secret)).toThrow(/timestamp too new/i);
  });

  it("types the event by its type", () => {
    vi.useRealTimers();
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      id: "evt_1",
      type: "webhook.test",
      created_at: new Date().toISOString(),
      integration: null,
      data: { endpoint_id: "we_1" },
    });
    const key = Buffer.from(VECTOR.secret.slice(6), "base64");
    const signature = `v1,${createHmac("sha256", key).update(`evt_1.${now}.${body}`).digest("base64")}`;
    const event = webhooks.verify(
      body,
      { "webhook-id": "evt_1", "webhook-timestamp": String(now), "webhook-signature": signature },
      VECTOR.secret,
    );
    if (event.type === "webhook.test") expect(event.data.endpoint_id).toBe("we_1");
    else throw new Error("expected the test event");
  });
});
