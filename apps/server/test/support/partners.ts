import { createApiKey, type Scope } from "@mga/core/keys";
import { createIntegration } from "@mga/core/partners/integrations";

import type { TestApp } from "./test-app";

export const ALL_PARTNER_SCOPES: Scope[] = [
  "embed:users:read",
  "embed:users:write",
  "embed:users:delete",
  "embed:teams:read",
  "embed:teams:write",
];

/** An organization with one integration and a key holding `scopes` (default: every directory scope). */
export async function newPartner(app: TestApp, options: { slug?: string; aliases?: string[]; scopes?: Scope[] } = {}) {
  const owner = await app.newKey({ scopes: ["chat:read"] });
  const slug = options.slug ?? "acme-los";
  await createIntegration(app.t.db, { organizationId: owner.organizationId, slug, aliases: options.aliases });
  const key = await anotherKey(app, owner.organizationId, options.scopes ?? ALL_PARTNER_SCOPES);
  const base = `/v1/integrations/${slug}`;
  const json = (method: string, path: string, body: unknown, withKey = key.key, headers: Record<string, string> = {}) =>
    app.request(`${base}${path}`, {
      method,
      key: withKey,
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  return {
    organizationId: owner.organizationId,
    slug,
    key: key.key,
    keyId: key.id,
    base,
    get: (path: string, withKey = key.key) => app.request(`${base}${path}`, { key: withKey }),
    put: (path: string, body: unknown, withKey?: string) => json("PUT", path, body, withKey),
    patch: (path: string, body: unknown, withKey?: string) => json("PATCH", path, body, withKey),
    post: (path: string, body: unknown, withKey?: string, headers?: Record<string, string>) =>
      json("POST", path, body, withKey, headers),
  };
}

export async function anotherKey(app: TestApp, organizationId: string, scopes: Scope[]) {
  const { key, plaintext } = await createApiKey(app.t.db, { organizationId, name: "partner key", scopes });
  return { key: plaintext, id: key.id };
}
