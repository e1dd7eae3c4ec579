import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { patchTeam } from "../../../src/partners/teams/teams";
import { findPartnerUser } from "../../../src/partners/users/get-user";
import { getPartnerUserContact, provisionPartnerUser } from "../../../src/partners/users/index";
import { launchEligibility } from "../../../src/partners/users/partner-user";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** PUT user's domain (spec 3.1, 4.10): provisioning, identity matching, team assignment and the background retry. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

const outbox = async (email: string) =>
  (
    await f.db.sql.query<{ kind: string }>(
      "SELECT kind FROM notification_outbox WHERE recipient = $1 ORDER BY created_at",
      [email],
    )
  ).rows.map((row) => row.kind);

describe("provisioning a new user", () => {
  it("creates a partner account, links a chat identity and sends the password setup once provisioning succeeded", async () => {
    const integration = await f.integration();
    const email = f.email();
    const { user, outcome } = await provisionPartnerUser(f.deps, integration, "lo-new", {
      email: `  ${email.toUpperCase()} `,
      name: "Pat",
    });
    expect(outcome).toBe("created");
    expect(user).toMatchObject({
      status: "active",
      provisioningStatus: "active",
      identityOrigin: "partner_created",
      experienceType: "white_label",
      mappingStatus: "mapped",
      wordpressLinked: true,
      chatIdentityLinked: true,
      team: null,
      accountGeneration: 1,
      accessVersion: 1,
    });
    expect(launchEligibility(user)).toEqual({ canLaunch: true, blockingReasons: [] });
    // Stored trimmed and lower-cased, so matching ignores case.
    expect(await getPartnerUserContact(f.db, user.id)).toEqual({ email, name: "Pat" });
    expect(await outbox(email)).toEqual(["password_setup"]);
  });

  it("links the existing account of the email (existing_mg) and sends no notification", async () => {
    const integration = await f.integration();
    const account = await f.selfSiteAccount();
    const { user, outcome } = await provisionPartnerUser(f.deps, integration, "lo-known", { email: account.email });
    expect(outcome).toBe("created");
    expect(user).toMatchObject({ identityOrigin: "existing_mg", experienceType: "mg", wordpressLinked: true });
    expect(await f.siteAccountOf(integration, "lo-known")).toBe(account.id);
    expect(await outbox(account.email)).toEqual([]);
  });
});

describe("provisioning an existing user", () => {
  it("matches the same user again (existing) and applies team changes: omitted keeps, null clears, a value assigns", async () => {
    const integration = await f.integration();
    const [east, west] = [await f.team({ integration }), await f.team({ integration })];
    const user = await f.user({ integration, team: east });
    expect(user.team?.externalTeamId).toBe(east.externalTeamId);
    const again = (teamExternalId?: string | null) =>
      provisionPartnerUser(f.deps, integration, user.externalUserId, { email: user.email, teamExternalId });

    const kept = await again(undefined);
    expect(kept.outcome).toBe("existing");
    expect(kept.user.team?.externalTeamId).toBe(east.externalTeamId);
    expect(kept.user.assignmentVersion).toBe(user.assignmentVersion);
    const moved = await again(west.externalTeamId);
    expect(moved.user.team?.externalTeamId).toBe(west.externalTeamId);
    expect(moved.user.assignmentVersion).toBe(user.assignmentVersion + 1);
    const cleared = await again(null);
    expect(cleared.user.team).toBeNull();
    expect(cleared.user.assignmentVersion).toBe(user.assignmentVersion + 2);
  });

  it("refuses a different email (use a profile change) and a deleted user (use reprovision) with identity_conflict", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    expect(await refusal(provisionPartnerUser(f.deps, integration, user.externalUserId, { email: f.email() }))).toBe(
      "identity_conflict",
    );
    const deleted = await f.user({ integration, status: "deleted" });
    expect(
      await refusal(provisionPartnerUser(f.deps, integration, deleted.externalUserId, { email: deleted.email })),
    ).toBe("identity_conflict");
    expect((await findPartnerUser(f.db, integration, deleted.externalUserId))?.status).toBe("deleted");
  });

  it("assigns only an existing, active team of the same integration", async () => {
    const integration = await f.integration();
    const other = await f.integration();
    const archived = await f.team({ integration });
    await patchTeam(f.db, integration, archived.externalTeamId, { status: "archived" });
    const elsewhere = await f.team({ integration: other });
    const provision = (teamExternalId: string) =>
      provisionPartnerUser(f.deps, integration, "lo-teamless", { email: f.email(), teamExternalId });
    expect(await refusal(provision("no-such-team"))).toBe("team_not_found");
    expect(await refusal(provision(archived.externalTeamId))).toBe("team_archived");
    expect(await refusal(provision(elsewhere.externalTeamId))).toBe("team_not_found");
    expect(await findPartnerUser(f.db, integration, "lo-teamless")).toBeUndefined();
  });
});

describe("provisioning while the site-account system is down", () => {
  it("leaves the user pending (cannot launch, no notification); the next PUT completes it", async () => {
    const integration = await f.integration();
    const pending = await f.user({ integration, status: "pending" });
    expect(pending).toMatchObject({
      status: "active",
      provisioningStatus: "pending",
      wordpressLinked: false,
      chatIdentityLinked: false,
    });
    expect(launchEligibility(pending).blockingReasons).toEqual([
      "provisioning_pending",
      "wordpress_unlinked",
      "chat_identity_unlinked",
    ]);
    expect(await outbox(pending.email)).toEqual([]);

    const { user, outcome } = await provisionPartnerUser(f.deps, integration, pending.externalUserId, {
      email: pending.email,
    });
    expect(outcome).toBe("existing");
    expect(user).toMatchObject({
      provisioningStatus: "active",
      identityOrigin: "partner_created",
      chatIdentityLinked: true,
    });
    expect(await outbox(pending.email)).toEqual(["password_setup"]);
  });

  it("the background retry completes it; its last failed attempt marks it failed, and a later attempt still recovers", async () => {
    const integration = await f.integration();
    const one = await f.user({ integration, status: "pending" });
    await f.runProvisioning(integration, one.externalUserId);
    expect((await findPartnerUser(f.db, integration, one.externalUserId))?.provisioningStatus).toBe("active");

    const two = await f.user({ integration, status: "pending" });
    f.outage.siteAccounts = true;
    try {
      await expect(f.runProvisioning(integration, two.externalUserId)).rejects.toThrow(/still incomplete/);
      expect((await findPartnerUser(f.db, integration, two.externalUserId))?.provisioningStatus).toBe("pending");
      await f.runProvisioning(integration, two.externalUserId, { last: true });
    } finally {
      f.outage.siteAccounts = false;
    }
    const failed = await findPartnerUser(f.db, integration, two.externalUserId);
    expect(failed?.provisioningStatus).toBe("failed");
    expect(launchEligibility(failed as NonNullable<typeof failed>).blockingReasons).toContain("provisioning_failed");
    const { user } = await provisionPartnerUser(f.deps, integration, two.externalUserId, { email: two.email });
    expect(user.provisioningStatus).toBe("active");
  });
});
