import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AppError } from "@mga/core/errors";
import { createApiKey, type Scope } from "@mga/core/keys";
import { createOrganization } from "@mga/core/orgs";
import { createTestDatabase, type TestDatabase } from "@mga/core/testing";

import { authorizeKeyRequest } from "../../src/pipeline/authorize-key-request";

/** The one gate of key-authenticated work (issue 13), against a real PostgreSQL. */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

async function newKey(scopes: Scope[], rateLimitPerMinute?: number) {
  const org = await createOrganization(t.db, { name: "Gate" });
  return (await createApiKey(t.db, { organizationId: org.id, name: "k", scopes, rateLimitPerMinute })).plaintext;
}

const request = (presentedKey: string | undefined) => ({
  db: t.db,
  presentedKey,
  response: { headers: {} as Record<string, string> },
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

/** Runs the test inside one rate-limit window, so two requests are counted in the same one. */
async function awayFromAMinuteBoundary() {
  const msIntoMinute = Date.now() % 60_000;
  if (msIntoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - msIntoMinute));
}

describe("authorizeKeyRequest", () => {
  it("refuses a missing or unknown key (401) before counting anything", async () => {
    for (const presented of [undefined, "mga_sk_nonsense"]) {
      const ctx = request(presented);
      expect((await refusal(authorizeKeyRequest(ctx, "chat:read"))).code).toBe("unauthorized");
      expect(ctx.response.headers).toEqual({});
    }
  });

  it("counts the request, records the rate-limit headers, then checks the scope (403)", async () => {
    await awayFromAMinuteBoundary();
    const key = await newKey(["chat:read"]);
    const refused = request(key);
    const error = await refusal(authorizeKeyRequest(refused, "chat:write"));
    expect(error.code).toBe("forbidden");
    expect(error.message).toBe("this API key lacks the chat:write scope");
    expect(refused.response.headers).toMatchObject({
      "RateLimit-Policy": '"per-key";q=600;w=60',
      "X-RateLimit-Remaining": "599",
    });
    const allowed = request(key);
    await expect(authorizeKeyRequest(allowed, "chat:read")).resolves.toMatchObject({ scopes: ["chat:read"] });
    expect(allowed.response.headers["X-RateLimit-Remaining"]).toBe("598");
    // No scope: any active key (GET /v1/me).
    await expect(authorizeKeyRequest(request(key), undefined)).resolves.toMatchObject({ scopes: ["chat:read"] });
  });

  it("over the limit: 429 with Retry-After, before the scope is looked at", async () => {
    await awayFromAMinuteBoundary();
    const key = await newKey(["chat:read"], 1);
    await authorizeKeyRequest(request(key), "chat:read");
    const ctx = request(key);
    const error = await refusal(authorizeKeyRequest(ctx, "chat:write"));
    expect(error.code).toBe("rate_limited");
    expect(Number(error.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(error.headers["RateLimit-Policy"]).toBe('"per-key";q=1;w=60');
    expect(ctx.response.headers).toEqual({});
  });
});
