import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { recordAudit } from "../../src/audit/audit-log";
import { listAudit } from "../../src/audit/list-audit";
import { addToOutbox, listOutbox } from "../../src/local-site/outbox";
import { createImport, listImports } from "../../src/partners/imports/imports";
import { listTeams } from "../../src/partners/teams/teams";
import { listPartnerUsers } from "../../src/partners/users/list-users";
import { openFixtures, type Fixtures } from "../support/fixtures";

/** Every paged list counts its `total` one way: only when the caller asks (withTotal), never by default. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("paged lists' totals", () => {
  it("are counted only when asked, by every list", async () => {
    const integration = await f.integration();
    await recordAudit(f.db, { actor: "totals@mga.test", action: "totals.test", target: "t" });
    await createImport(f.deps, integration, [{ external_user_id: "totals-1", email: f.email() }]);
    const { rows } = await f.db.sql.query<{ id: string }>(
      "INSERT INTO site_accounts (id, email, origin) VALUES ('sa_totals', 'totals@outbox.test', 'self') RETURNING id",
    );
    await addToOutbox(f.db, {
      accountId: rows[0]?.id as string,
      kind: "email_verification",
      recipient: "totals@outbox.test",
      payload: {},
    });

    const lists = {
      audit: (withTotal?: boolean) => listAudit(f.db, { actor: "totals@mga.test", limit: 10, withTotal }),
      outbox: (withTotal?: boolean) => listOutbox(f.db, { email: "totals@outbox.test", limit: 10, withTotal }),
      imports: (withTotal?: boolean) => listImports(f.db, integration, { limit: 10, withTotal }),
      teams: (withTotal?: boolean) => listTeams(f.db, integration, { limit: 10, withTotal }),
      users: (withTotal?: boolean) => listPartnerUsers(f.db, integration, { limit: 10, withTotal }),
    };
    for (const [name, list] of Object.entries(lists)) {
      expect({ name, has: "total" in (await list()) }).toEqual({ name, has: false });
      expect({ name, total: (await list(true)).total }).toEqual({ name, total: expect.any(Number) });
    }
    expect((await lists.audit(true)).total).toBe(1);
    expect((await lists.outbox(true)).total).toBe(1);
    expect((await lists.imports(true)).total).toBe(1);
  });
});
