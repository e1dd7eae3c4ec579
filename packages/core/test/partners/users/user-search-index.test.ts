import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { listPartnerUsers } from "../../../src/partners/users/list-users";
import { seedDirectory } from "../../../src/testing/seed-directory";
import { openFixtures, type Fixtures } from "../../support/fixtures";

/** The `q` search's trigram index ("Directory at scale"): a search right after a bulk import reads the index alone. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("the user search's index", () => {
  it("holds no pending list after a bulk insert, so no search has to read one", async () => {
    const integration = await f.integration();
    await seedDirectory(f.db, { integrationId: integration.id, users: 500, teams: 2, prefix: "bulk" });
    const found = await listPartnerUsers(f.db, integration, { limit: 25, q: "000012" });
    // User 120 is deleted (every twentieth is), so a list leaves it out.
    const expected = [12, 121, 122, 123, 124, 125, 126, 127, 128, 129].map((i) => `bulk-${String(i).padStart(7, "0")}`);
    expect(found.users.map((user) => user.externalUserId)).toEqual(expected);
    // The pages GIN's fast update would have left for a vacuum (or every search) to go through.
    const { rows } = await f.db.sql.query<{ pages: string }>(
      "SELECT gin_clean_pending_list('partner_users_external_user_id_trgm_idx'::regclass) AS pages",
    );
    expect(Number(rows[0]?.pages)).toBe(0);
  });
});
