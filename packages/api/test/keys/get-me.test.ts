import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createApiKey } from "@mga/core/keys";
import { createOrganization } from "@mga/core/orgs";
import { createTestDatabase, type TestDatabase } from "@mga/core/testing";

import { appRouter, createCallerFactory, type ApiContext } from "../../src/index";

/** Procedures called directly (as the admin console and the SSE routes do), without HTTP. */
let t: TestDatabase;
const createCaller = createCallerFactory(appRouter);
const upstream = {
  stream: () => {
    throw new Error("not used");
  },
};
const directory = { siteAccounts: {} as never, chatIdentities: {} as never };
const context = (presentedKey: string | undefined): ApiContext => ({
  db: t.db,
  upstream,
  directory,
  queue: {} as never,
  appUrl: "http://app.test",
  requestId: "req_test",
  clientAddress: "127.0.0.1",
  presentedKey,
  idempotencyKey: undefined,
  staffSessionToken: undefined,
  csrfHeader: undefined,
  response: { headers: {} },
  record: {},
});

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

describe("key-authenticated procedures", () => {
  it("authenticate the key and check the route's scope", async () => {
    const org = await createOrganization(t.db, { name: "Direct" });
    const { plaintext } = await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: ["chat:read"] });
    const caller = createCaller(context(plaintext));
    await expect(caller.keys.getMe({})).resolves.toMatchObject({
      request_id: "req_test",
      key: { scopes: ["chat:read"] },
    });
    await expect(caller.sources.listSources({})).rejects.toMatchObject({ cause: { code: "forbidden" } });
    await expect(createCaller(context(undefined)).keys.getMe({})).rejects.toMatchObject({
      cause: { code: "unauthorized" },
    });
  });
});
