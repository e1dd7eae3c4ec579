import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";

/** GET /v1/events, and the events the partner directory records with each change. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

type Partner = Awaited<ReturnType<typeof newPartner>>;
const events = async (p: Partner, query = "") => {
  const res = await app.request(`/v1/events${query}`, { key: p.key });
  expect(res.status, res.text).toBe(200);
  return res.body.events as Array<{
    id: string;
    type: string;
    created_at: string;
    integration: string | null;
    data: UntypedJson;
  }>;
};
const post = (p: Partner, path: string, body: unknown, key: string) =>
  app.request(`${p.base}${path}`, {
    method: "POST",
    key: p.key,
    headers: { "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(body),
  });

describe("GET /v1/events", () => {
  describe("happy", () => {
    it(
      "records the directory's changes with the resource as the API returns it, newest first",
      { timeout: 40_000 },
      async () => {
        const p = await newPartner(app, { slug: "ev-los" });
        await p.put("/users/a", { email: "a.person@acme.test", name: "A Person" });
        // Provisioned at once by the local directory: the user can now launch.
        expect((await events(p)).map((e) => e.type)).toEqual(["user.launch_eligibility_changed"]);
        await p.patch("/users/a", { status: "disabled" });
        await p.patch("/users/a", { status: "active" });
        const deletion = await post(p, "/users/a/deletions", { note: "secret audit note" }, "del-a");
        expect(deletion.status).toBe(202);
        const opId = deletion.body.operation.operation_id as string;
        await expect
          .poll(async () => (await events(p)).map((e) => e.type).includes("user.deleted"), { timeout: 20_000 })
          .toBe(true);

        const list = await events(p);
        expect(list.map((e) => e.type)).toEqual([
          "user.deleted",
          "operation.completed",
          "user.launch_eligibility_changed",
          "user.disabled",
          "user.launch_eligibility_changed",
          "user.reactivated",
          "user.launch_eligibility_changed",
          "user.disabled",
          "user.launch_eligibility_changed",
        ]);
        for (const event of list)
          expect(event).toMatchObject({
            id: expect.stringMatching(/^evt_/),
            integration: "ev-los",
            created_at: expect.any(String),
          });
        const completed = list[1];
        expect(completed?.data.operation).toEqual((await p.get(`/user-operations/${opId}`)).body.operation);
        expect(completed?.data.user).toMatchObject({ external_user_id: "a", status: "deleted" });
        const text = JSON.stringify(list);
        for (const secret of ["a.person", "A Person", "secret audit note", "password"])
          expect(text).not.toContain(secret);
        // Reactivated, the user could launch again once its site account was unlocked; the deletion request stopped that.
        expect(list[4]?.data.user.launch_eligibility).toEqual({ can_launch: true, blocking_reasons: [] });
        expect(list[2]?.data.user.launch_eligibility.can_launch).toBe(false);
      },
    );

    it("records an import's completion with its summary counts", { timeout: 40_000 }, async () => {
      const p = await newPartner(app, { slug: "ev-imp-los" });
      const created = await post(
        p,
        "/user-imports",
        {
          users: [
            { external_user_id: "i-1", email: "i1@acme.test" },
            { external_user_id: "i-2", email: "i2@acme.test" },
          ],
        },
        "imp-1",
      );
      expect(created.status, created.text).toBe(202);
      await expect.poll(async () => (await events(p, "?type=import.completed")).length, { timeout: 20_000 }).toBe(1);
      const [event] = await events(p, "?type=import.completed");
      expect(event?.data.import).toMatchObject({
        job_id: created.body.import.job_id,
        status: "completed",
        total: 2,
        summary: { processed: 2, created: 2, failed: 0 },
      });
      expect(event?.data.import.results).toBeUndefined();
    });
  });

  describe("errors", () => {
    it(
      "pages newest first and filters by type, integration and time; a cursor with other filters is refused",
      { timeout: 40_000 },
      async () => {
        const p = await newPartner(app, { slug: "ev-page-los" });
        for (const id of ["p1", "p2", "p3"]) await p.put(`/users/${id}`, { email: `${id}@acme.test` });
        const all = await events(p);
        expect(all).toHaveLength(3);
        const first = await app.request("/v1/events?limit=2", { key: p.key });
        expect(first.body.events.map((e: { id: string }) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
        const second = await app.request(`/v1/events?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
          key: p.key,
        });
        expect(second.body.events.map((e: { id: string }) => e.id)).toEqual([all[2]?.id]);
        expect(second.body.next_cursor).toBeNull();
        expectEnvelope(
          await app.request(
            `/v1/events?limit=2&type=user.disabled&cursor=${encodeURIComponent(first.body.next_cursor)}`,
            { key: p.key },
          ),
          400,
          "invalid_request",
        );

        expect(await events(p, "?type=user.disabled")).toEqual([]);
        expect(await events(p, "?integration=ev-page-los")).toHaveLength(3);
        expect(await events(p, "?integration=other-los")).toEqual([]);
        const middle = all[1]?.created_at as string;
        expect((await events(p, `?created_after=${middle}`)).map((e) => e.id)).toEqual(
          all.slice(0, 2).map((e) => e.id),
        );
        expect((await events(p, `?created_before=${middle}`)).map((e) => e.id)).toEqual([all[2]?.id]);
        expectEnvelope(await app.request("/v1/events?type=user.unknown", { key: p.key }), 400, "invalid_request");
        expectEnvelope(await app.request("/v1/events?created_after=yesterday", { key: p.key }), 400, "invalid_request");

        // Events older than 30 days are neither listed nor kept.
        await app.t.db.sql.query("UPDATE events SET created_at = now() - interval '31 days' WHERE id = $1", [
          all[2]?.id,
        ]);
        expect(await events(p)).toHaveLength(2);
        const { sweepOldEvents } = await import("@mga/core/webhooks");
        expect(await sweepOldEvents(app.t.db)).toBeGreaterThanOrEqual(1);
        expect((await app.t.db.sql.query("SELECT 1 FROM events WHERE id = $1", [all[2]?.id])).rowCount).toBe(0);
      },
    );
  });

  describe("security", () => {
    it("needs the embed:users:read scope", async () => {
      const p = await newPartner(app, { slug: "ev-scope-los" });
      const writer = await anotherKey(app, p.organizationId, ["embed:users:write"]);
      expectEnvelope(await app.request("/v1/events", { key: writer.key }), 403, "forbidden");
      expectEnvelope(await app.request("/v1/events"), 401, "unauthorized");
    });
  });
});
