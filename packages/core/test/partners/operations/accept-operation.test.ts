import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { onCommit } from "../../../src/db/transaction";
import { acceptOperationRequest, getOperation, requestDeletion } from "../../../src/partners/operations/index";
import { openFixtures, type Fixtures } from "../../support/fixtures";

/** What a lifecycle request's 202 describes (spec 4.10): the operation as the request left it. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("accepting a lifecycle request", () => {
  it("answers with the operation queued even when a worker finishes it the moment the request commits", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const accepted = await acceptOperationRequest(f.deps, integration, user.externalUserId, async (deps) => {
      const id = await requestDeletion(deps, integration, user.externalUserId, {});
      // The fastest possible worker: it runs the job at the commit, before the answer is returned.
      onCommit(deps.db, () => f.runOperation(id));
      return id;
    });
    expect((await getOperation(f.db, integration, accepted.operationId)).status).toBe("completed");
    expect(accepted.user).toMatchObject({
      status: "disabled",
      lifecycleOperation: { id: accepted.operationId, type: "deletion", status: "queued" },
    });
  });
});
