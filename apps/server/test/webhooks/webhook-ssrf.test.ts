import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createStaff } from "@mga/core/staff";

import { newPartner } from "../support/partners";
import { staffClient } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";
import { startReceiver } from "../support/webhook-receiver";
import { endpointFor } from "./webhook-helpers";

/** As production runs (WEBHOOK_ALLOW_PRIVATE_ADDRESSES unset): nothing is sent to a private address. */
let app: TestApp;
const { signIn, mutate } = staffClient(() => app.adminUrl);
beforeAll(async () => {
  app = await startTestApp({ webhooks: { allowPrivateAddresses: false, retryDelaysMs: [100] } });
});
afterAll(async () => {
  await app.close();
});

describe("webhook SSRF rules", () => {
  it("does not deliver to a loopback address, and says why", { timeout: 30_000 }, async () => {
    const receiver = await startReceiver();
    const p = await newPartner(app, { slug: "ssrf-los" });
    // Made behind the rules' back (as a name that later resolves to a private address would be).
    const { endpoint } = await endpointFor(app, p.organizationId, receiver.url, ["user.disabled"]);
    await p.put("/users/s-1", { email: "s1@acme.test" });
    await p.patch("/users/s-1", { status: "disabled" });
    await expect
      .poll(
        async () =>
          (
            await app.t.db.sql.query(
              "SELECT status, last_error, last_status_code FROM webhook_deliveries WHERE endpoint_id = $1",
              [endpoint.id],
            )
          ).rows[0],
        { timeout: 10_000 },
      )
      .toMatchObject({
        status: "failed",
        last_status_code: null,
        last_error: expect.stringMatching(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback, private/),
      });
    expect(receiver.received).toEqual([]);

    // A name is resolved and its address checked the same way.
    const named = await endpointFor(app, p.organizationId, receiver.url.replace("127.0.0.1", "localhost"), [
      "user.reactivated",
    ]);
    await p.patch("/users/s-1", { status: "active" });
    await expect
      .poll(
        async () =>
          (
            await app.t.db.sql.query("SELECT status, last_error FROM webhook_deliveries WHERE endpoint_id = $1", [
              named.endpoint.id,
            ])
          ).rows[0],
        { timeout: 10_000 },
      )
      .toMatchObject({
        status: "failed",
        last_error: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1)/),
      });
    expect(receiver.received).toEqual([]);
    await receiver.close();
  });

  it("refuses a private or metadata address when an endpoint is configured", async () => {
    await createStaff(app.t.db, {
      email: "ssrf-admin@mga.test",
      password: "admin password 1",
      role: "admin",
      actor: "test",
    });
    const admin = await signIn("ssrf-admin@mga.test", "admin password 1");
    const p = await newPartner(app, { slug: "ssrf-cfg-los" });
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://169.254.169.254/latest/meta-data",
      "https://10.0.0.7/hook",
      "http://[::1]/x",
      "http://localhost/x",
      "ftp://example.com/x",
      "https://user:pw@example.com/x",
    ]) {
      const res = await mutate(admin, "staff.webhooks.create", {
        organization_id: p.organizationId,
        url,
        event_types: ["user.disabled"],
      });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.error?.message).toMatch(/^url: /);
    }
    const accepted = await mutate(admin, "staff.webhooks.create", {
      organization_id: p.organizationId,
      url: "https://hooks.example.com/mga",
      event_types: ["user.disabled"],
    });
    expect(accepted.status).toBe(200);
  });
});
