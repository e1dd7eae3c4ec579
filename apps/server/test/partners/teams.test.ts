import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { listTeamsOutput, teamResponseSchema } from "@mga/api";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("partner teams: GET, PUT, PATCH /v1/integrations/{integration}/teams[/{external_team_id}]", () => {
  describe("happy", () => {
    it("PUT creates (201, user_count 0) then updates (200); GET returns it; exactly the spec's fields", async () => {
      const p = await newPartner(app);
      const created = await p.put("/teams/team-east", { name: "East" });
      expect(created.status).toBe(201);
      teamResponseSchema.parse(created.body);
      expect(created.body.team).toMatchObject({
        integration: "acme-los",
        external_team_id: "team-east",
        name: "East",
        status: "active",
        user_count: 0,
      });
      expect(Object.keys(created.body.team).sort()).toEqual([
        "created_at",
        "external_team_id",
        "id",
        "integration",
        "name",
        "status",
        "updated_at",
        "user_count",
      ]);
      const renamed = await p.put("/teams/team-east", { name: "East Coast" });
      expect(renamed.status).toBe(200);
      expect(renamed.body.team).toMatchObject({ id: created.body.team.id, name: "East Coast" });
      expect((await p.get("/teams/team-east")).body.team.name).toBe("East Coast");
      expectEnvelope(await p.get("/teams/nope"), 404, "not_found");
    });

    it("lists with a status filter and stable cursor paging", async () => {
      const p = await newPartner(app);
      for (const id of ["a", "b", "c", "d", "e"]) await p.put(`/teams/${id}`, { name: id.toUpperCase() });
      await p.patch("/teams/c", { status: "archived" });
      const first = await p.get("/teams?limit=2");
      listTeamsOutput.parse(first.body);
      expect(first.body.teams.map((t: { external_team_id: string }) => t.external_team_id)).toEqual(["a", "b"]);
      // Rows inserted while paging never shift later pages.
      await p.put("/teams/f", { name: "F" });
      const second = await p.get(`/teams?limit=2&cursor=${first.body.next_cursor}`);
      expect(second.body.teams.map((t: { external_team_id: string }) => t.external_team_id)).toEqual(["c", "d"]);
      const third = await p.get(`/teams?limit=2&cursor=${second.body.next_cursor}`);
      expect(third.body.teams.map((t: { external_team_id: string }) => t.external_team_id)).toEqual(["e", "f"]);
      expect(third.body.next_cursor).toBeNull();
      const archived = await p.get("/teams?status=archived");
      expect(archived.body.teams.map((t: { external_team_id: string }) => t.external_team_id)).toEqual(["c"]);
      expectEnvelope(await p.get(`/teams?status=active&cursor=${first.body.next_cursor}`), 400, "invalid_request");
      expectEnvelope(await p.get("/teams?limit=0"), 400, "invalid_request");
      expectEnvelope(await p.get("/teams?limit=101"), 400, "invalid_request");
      expectEnvelope(await p.get("/teams?cursor=garbage"), 400, "invalid_request");
      expectEnvelope(await p.get("/teams?status=deleted"), 400, "invalid_request");
    });
  });

  describe("errors", () => {
    it("validates bodies and ids", async () => {
      const p = await newPartner(app);
      expectEnvelope(await p.put("/teams/t1", {}), 400, "invalid_request");
      expectEnvelope(await p.put("/teams/t1", { name: "x".repeat(121) }), 400, "invalid_request");
      expectEnvelope(await p.put("/teams/t1", { name: "A", status: "archived" }), 400, "invalid_request");
      expectEnvelope(await p.put("/teams/bad%20id", { name: "A" }), 400, "invalid_request");
      expectEnvelope(await p.patch("/teams/t1", {}), 400, "invalid_request");
    });

    it("archives a team without users, refuses one with users (409 team_in_use), and reactivates", async () => {
      const p = await newPartner(app);
      await p.put("/teams/empty", { name: "Empty" });
      const archived = await p.patch("/teams/empty", { status: "archived" });
      expect(archived.body.team.status).toBe("archived");
      expect((await p.patch("/teams/empty", { status: "active", name: "Back" })).body.team).toMatchObject({
        status: "active",
        name: "Back",
      });

      await p.put("/teams/busy", { name: "Busy" });
      await p.put("/users/u1", { email: "u1@acme.test", team_external_id: "busy" });
      expectEnvelope(await p.patch("/teams/busy", { status: "archived" }), 409, "team_in_use");
      expect((await p.get("/teams/busy")).body.team).toMatchObject({ status: "active", user_count: 1 });
      await p.put("/users/u1", { email: "u1@acme.test", team_external_id: null });
      expect((await p.patch("/teams/busy", { status: "archived" })).status).toBe(200);
    });
  });

  describe("security", () => {
    it("needs embed:teams:read to read and embed:teams:write to write", async () => {
      const p = await newPartner(app);
      const reader = await anotherKey(app, p.organizationId, ["embed:teams:read"]);
      const userKey = await anotherKey(app, p.organizationId, ["embed:users:read", "embed:users:write"]);
      expectEnvelope(await p.put("/teams/t", { name: "T" }, reader.key), 403, "forbidden");
      expectEnvelope(await p.get("/teams", userKey.key), 403, "forbidden");
      await p.put("/teams/t", { name: "T" });
      expect((await p.get("/teams/t", reader.key)).status).toBe(200);
    });
  });
});
