import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getOperation, requestReprovision } from "../../../src/partners/operations/index";
import { getPartnerUser } from "../../../src/partners/users/index";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** POST reprovision (spec 3.1): a deleted user returns as a new account generation with new identities. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

const chatIdentities = async (userId: string) =>
  (
    await f.db.sql.query<{ generation: number; blocked: boolean }>(
      "SELECT generation, blocked FROM chat_identities WHERE partner_user_id = $1 ORDER BY generation",
      [userId],
    )
  ).rows;

describe("reprovision", () => {
  it("only a deleted user: an active or disabled one is identity_conflict", async () => {
    const integration = await f.integration();
    for (const status of ["active", "disabled"] as const) {
      const user = await f.user({ integration, status });
      expect(await refusal(requestReprovision(f.deps, integration, user.externalUserId, { email: f.email() }))).toBe(
        "identity_conflict",
      );
      expect((await getPartnerUser(f.db, integration, user.externalUserId)).accountGeneration).toBe(1);
    }
    expect(await refusal(requestReprovision(f.deps, integration, "nobody", { email: f.email() }))).toBe("not_found");
  });

  it("starts the next generation at once (pending); the worker gives it a new site account and chat identity", async () => {
    const integration = await f.integration();
    const team = await f.team({ integration });
    const user = await f.user({ integration, team, status: "deleted" });
    const email = f.email();
    const operationId = await requestReprovision(f.deps, integration, user.externalUserId, {
      email,
      name: "Back Again",
    });
    const started = await getPartnerUser(f.db, integration, user.externalUserId);
    expect(started).toMatchObject({
      id: user.id,
      status: "active",
      provisioningStatus: "pending",
      accountGeneration: 2,
      accessVersion: user.accessVersion + 1,
      team: null,
    });
    expect(started.lifecycleOperation).toMatchObject({ id: operationId, type: "reprovision", status: "queued" });

    await f.runOperation(operationId);
    expect((await getOperation(f.db, integration, operationId)).status).toBe("completed");
    expect(await getPartnerUser(f.db, integration, user.externalUserId)).toMatchObject({
      status: "active",
      provisioningStatus: "active",
      identityOrigin: "partner_created",
      wordpressLinked: true,
      chatIdentityLinked: true,
      accountGeneration: 2,
    });
    expect(await chatIdentities(user.id)).toEqual([
      { generation: 1, blocked: true },
      { generation: 2, blocked: false },
    ]);
  });

  it("with another user's email it is identity_conflict and the user stays deleted", async () => {
    const integration = await f.integration();
    const holder = await f.user({ integration });
    const deleted = await f.user({ integration, status: "deleted" });
    expect(
      await refusal(requestReprovision(f.deps, integration, deleted.externalUserId, { email: holder.email })),
    ).toBe("identity_conflict");
    expect(await getPartnerUser(f.db, integration, deleted.externalUserId)).toMatchObject({
      status: "deleted",
      accountGeneration: 1,
    });
  });

  it("while the site-account system is down its last attempt fails the operation and marks provisioning failed", async () => {
    const integration = await f.integration();
    const deleted = await f.user({ integration, status: "deleted" });
    const operationId = await requestReprovision(f.deps, integration, deleted.externalUserId, { email: f.email() });
    f.outage.siteAccounts = true;
    try {
      await expect(f.runOperation(operationId)).rejects.toMatchObject({ code: "upstream_error" });
      await f.runOperation(operationId, { last: true });
    } finally {
      f.outage.siteAccounts = false;
    }
    expect(await getOperation(f.db, integration, operationId)).toMatchObject({
      status: "failed",
      errorCode: "upstream_error",
    });
    expect((await getPartnerUser(f.db, integration, deleted.externalUserId)).provisioningStatus).toBe("failed");
  });
});
