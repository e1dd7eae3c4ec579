import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { findPartnerUser } from "../../../src/partners/users/get-user";
import { provisionPartnerUser } from "../../../src/partners/users/index";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** One person is one user per integration (one-user-per-email.ts); other partners may share the person. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("one user per email in an integration", () => {
  it("a new user with another user's email, in any case, is identity_conflict and nothing is stored", async () => {
    const integration = await f.integration();
    const first = await f.user({ integration });
    const refused = provisionPartnerUser(f.deps, integration, "lo-second", { email: first.email.toUpperCase() });
    await expect(refused).rejects.toMatchObject({ code: "identity_conflict", field: "email" });
    await expect(refused).rejects.not.toThrow(first.externalUserId);
    expect(await findPartnerUser(f.db, integration, "lo-second")).toBeUndefined();
  });

  it("users of other integrations may have the address: they share the person's site account", async () => {
    const email = f.email();
    const [a, b] = [await f.integration(), await f.integration()];
    const first = await f.user({ integration: a, email });
    const second = await f.user({ integration: b, email });
    expect(first.identityOrigin).toBe("partner_created");
    expect(second.identityOrigin).toBe("existing_mg");
    expect(await f.siteAccountOf(b, second.externalUserId)).toBe(await f.siteAccountOf(a, first.externalUserId));
  });

  it("a deleted user's address is free again", async () => {
    const integration = await f.integration();
    const deleted = await f.user({ integration, status: "deleted" });
    const reused = await f.user({ integration, email: deleted.email });
    expect(reused.status).toBe("active");
  });

  it("two users provisioned with one address at the same moment: exactly one is created", async () => {
    const integration = await f.integration();
    const email = f.email();
    const results = await Promise.all(
      ["lo-x", "lo-y", "lo-z"].map((id) => refusal(provisionPartnerUser(f.deps, integration, id, { email }))),
    );
    expect(results.sort()).toEqual(["identity_conflict", "identity_conflict", "ok"]);
  });
});
