import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { importResponseSchema } from "@mga/api";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Partner = Awaited<ReturnType<typeof newPartner>>;
const startImport = (p: Partner, users: unknown[], idempotencyKey?: string) =>
  app.request(`${p.base}/user-imports`, {
    method: "POST",
    key: p.key,
    headers: { "Content-Type": "application/json", ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    body: JSON.stringify({ users }),
  });
async function waitForImport(p: Partner, jobId: string, timeout = 60_000) {
  let body: UntypedJson;
  await expect
    .poll(
      async () => {
        body = (await p.get(`/user-imports/${jobId}`)).body;
        return body.import.status;
      },
      { timeout, interval: 250 },
    )
    .toMatch(/^(completed|failed)$/);
  return body;
}

describe("partner imports: POST /v1/integrations/{integration}/user-imports, GET .../user-imports/{job_id}", () => {
  describe("happy", () => {
    it("imports 1,000 users", { timeout: 120_000 }, async () => {
      const p = await newPartner(app);
      await p.put("/teams/east", { name: "East" });
      const users = Array.from({ length: 1000 }, (_, i) => ({
        external_user_id: `imp-${String(i).padStart(4, "0")}`,
        email: `imp${i}@acme.test`,
        ...(i % 2 ? { team_external_id: "east" } : {}),
      }));
      const accepted = await startImport(p, users, "import-1000");
      expect(accepted.status).toBe(202);
      importResponseSchema.parse(accepted.body);
      expect(accepted.body.import).toMatchObject({ status: "queued", total: 1000 });
      const done = await waitForImport(p, accepted.body.import.job_id, 100_000);
      importResponseSchema.parse(done);
      expect(done.import).toMatchObject({
        status: "completed",
        total: 1000,
        summary: { processed: 1000, created: 1000, existing: 0, pending: 0, failed: 0 },
      });
      const listed = await p.get("/users?limit=1");
      expect(listed.body.counts).toMatchObject({ total: 1000, active: 1000 });
      expect((await p.get("/teams/east")).body.team.user_count).toBe(500);
    });

    it("records per-row outcomes and errors without failing the job", async () => {
      const p = await newPartner(app);
      await p.put("/users/known", { email: "known@acme.test" });
      const accepted = await startImport(
        p,
        [
          { external_user_id: "fresh", email: "fresh@acme.test" },
          { external_user_id: "known", email: "known@acme.test" },
          { external_user_id: "known-other-email", email: "x@acme.test", team_external_id: "ghost" },
        ],
        "import-mixed",
      );
      await p.put("/users/clash", { email: "clash@acme.test" });
      const second = await startImport(
        p,
        [{ external_user_id: "clash", email: "different@acme.test" }],
        "import-clash",
      );
      const done = await waitForImport(p, accepted.body.import.job_id);
      expect(done.import.summary).toEqual({ processed: 3, created: 1, existing: 1, pending: 0, failed: 1 });
      expect(done.import.results).toEqual([
        { external_user_id: "fresh", outcome: "created", error: null },
        { external_user_id: "known", outcome: "existing", error: null },
        {
          external_user_id: "known-other-email",
          outcome: "failed",
          error: { code: "team_not_found", message: expect.stringContaining("ghost") },
        },
      ]);
      const clash = await waitForImport(p, second.body.import.job_id);
      expect(clash.import.results[0]).toMatchObject({ outcome: "failed", error: { code: "identity_conflict" } });
    });

    it("replays the same job for the same Idempotency-Key", async () => {
      const p = await newPartner(app);
      const users = [{ external_user_id: "once", email: "once@x.test" }];
      const first = await startImport(p, users, "imp-once");
      const again = await startImport(p, users, "imp-once");
      expect(again.body.import.job_id).toBe(first.body.import.job_id);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expectEnvelope(
        await startImport(p, [{ external_user_id: "twice", email: "t@x.test" }], "imp-once"),
        409,
        "idempotency_conflict",
      );
    });
  });

  describe("errors", () => {
    it("rejects duplicates, over-limit and malformed input with a clear 400, creating nothing", async () => {
      const p = await newPartner(app);
      const dup = expectEnvelope(
        await startImport(
          p,
          [
            { external_user_id: "a", email: "a@x.test" },
            { external_user_id: "a", email: "b@x.test" },
          ],
          "k1",
        ),
        400,
        "invalid_request",
      );
      expect(dup.message).toMatch(/unique.*a/);
      const tooMany = Array.from({ length: 1001 }, (_, i) => ({ external_user_id: `u${i}`, email: `u${i}@x.test` }));
      expect(expectEnvelope(await startImport(p, tooMany, "k2"), 400, "invalid_request").message).toMatch(/users/);
      expect(expectEnvelope(await startImport(p, [], "k3"), 400, "invalid_request").message).toMatch(/users/);
      expect(
        expectEnvelope(
          await startImport(p, [{ external_user_id: "a", email: "a@x.test", password: "x" }], "k4"),
          400,
          "invalid_request",
        ).message,
      ).toMatch(/password/);
      expectEnvelope(await startImport(p, [{ external_user_id: "a", email: "a@x.test" }]), 400, "invalid_request");
      expect(
        (
          await app.t.db.sql.query(
            "SELECT count(*)::int AS n FROM import_jobs WHERE integration_id = (SELECT id FROM integrations WHERE organization_id = $1)",
            [p.organizationId],
          )
        ).rows[0].n,
      ).toBe(0);
    });
  });

  describe("security", () => {
    it("needs embed:users:write to import and embed:users:read to read a job; another organization's job is a 404", async () => {
      const p = await newPartner(app);
      const reader = await anotherKey(app, p.organizationId, ["embed:users:read"]);
      const writer = await anotherKey(app, p.organizationId, ["embed:users:write"]);
      const users = [{ external_user_id: "scoped", email: "scoped@x.test" }];
      expectEnvelope(
        await p.post("/user-imports", { users }, reader.key, { "Idempotency-Key": "scoped-read" }),
        403,
        "forbidden",
      );
      const accepted = await p.post("/user-imports", { users }, writer.key, { "Idempotency-Key": "scoped-write" });
      expect(accepted.status).toBe(202);
      const jobId = accepted.body.import.job_id as string;
      expectEnvelope(await p.get(`/user-imports/${jobId}`, writer.key), 403, "forbidden");
      expect((await p.get(`/user-imports/${jobId}`, reader.key)).status).toBe(200);
      // The same integration slug in another organization: its key cannot see this job.
      const other = await newPartner(app);
      expectEnvelope(await other.get(`/user-imports/${jobId}`), 404, "not_found");
      expectEnvelope(await app.request(`${p.base}/user-imports/${jobId}`), 401, "unauthorized");
      expectEnvelope(
        await app.request(`${p.base}/user-imports`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": "scoped-none" },
          body: JSON.stringify({ users }),
        }),
        401,
        "unauthorized",
      );
    });
  });
});
