import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { assertIntegrationSlug } from "../partners/integrations/slug";

/**
 * The one rule for aliases, as operators read it (CLI help, the console's integration and key
 * pages): resolveIntegration enforces it for partner requests and launches alike, and a launch
 * binding naming an alias is accepted only once the alias is granted to the key.
 */
export const ALIAS_GRANT_RULE =
  "An alias works only for the keys it is granted to: partner requests and launches through it are refused for any other key, and a launch key can be bound to it only once it is granted.";

/**
 * Launch bindings (spec section 5 item 6): each launch key may issue launches for one
 * public name (the canonical slug or an alias of an integration of its organization) once
 * an operator binds it. Keys are never expanded silently: without a binding, a key with
 * `embed:launch` still cannot launch, and a binding is no grant: an alias must be granted to
 * the key before it can be bound (ALIAS_GRANT_RULE).
 */
export interface LaunchBindingRecord {
  apiKeyId: string;
  publicName: string;
  integration: string;
  enabled: boolean;
}

export async function bindLaunchKey(
  db: Database,
  input: { apiKeyId: string; publicName: string },
): Promise<LaunchBindingRecord> {
  assertIntegrationSlug(input.publicName, "integration");
  const { rows: keys } = await db.sql.query<{ id: string; organizationId: string; status: string; scopes: string[] }>(
    `SELECT id, organization_id AS "organizationId", status, scopes FROM api_keys WHERE id = $1`,
    [input.apiKeyId],
  );
  const key = keys[0];
  if (!key) throw new AppError("not_found", `key ${input.apiKeyId} not found`);
  if (key.status !== "active") throw new AppError("invalid_request", `key ${key.id} is revoked`);
  if (!key.scopes.includes("embed:launch"))
    throw new AppError("invalid_request", `key ${key.id} lacks the embed:launch scope; create a separate launch key`);
  const { rows } = await db.sql.query<{ id: string; slug: string; granted: boolean }>(
    `SELECT i.id, i.slug, true AS granted FROM integrations i WHERE i.organization_id = $1 AND i.slug = $2
     UNION ALL
     SELECT i.id, i.slug, $3 = ANY (a.granted_key_ids) AS granted
     FROM integration_aliases a JOIN integrations i ON i.id = a.integration_id WHERE a.organization_id = $1 AND a.slug = $2`,
    [key.organizationId, input.publicName, key.id],
  );
  const integration = rows[0];
  if (!integration)
    throw new AppError("not_found", `no integration or alias named ${input.publicName} in the key's organization`, {
      field: "integration",
    });
  if (!integration.granted) {
    throw new AppError(
      "invalid_request",
      `the alias ${input.publicName} is not granted to this key; grant it to the key first, then bind it`,
      { field: "integration" },
    );
  }
  // A binding enabled again or moved to another name moves its version, so launches of the binding
  // it replaces stay dead (binding A, then B, then A again revives nothing); binding again to what
  // is already in force changes nothing and ends nothing.
  await db.sql.query(
    `INSERT INTO launch_bindings (api_key_id, integration_id, public_name, enabled) VALUES ($1, $2, $3, true)
     ON CONFLICT (api_key_id) DO UPDATE SET integration_id = EXCLUDED.integration_id, public_name = EXCLUDED.public_name, enabled = true, updated_at = now(),
       version = launch_bindings.version + CASE WHEN launch_bindings.enabled AND launch_bindings.integration_id = EXCLUDED.integration_id AND launch_bindings.public_name = EXCLUDED.public_name THEN 0 ELSE 1 END`,
    [key.id, integration.id, input.publicName],
  );
  return { apiKeyId: key.id, publicName: input.publicName, integration: integration.slug, enabled: true };
}

/** Ends every launch issued under the binding for good: its version moves, so binding the key again revives none of them. */
export async function unbindLaunchKey(db: Database, apiKeyId: string): Promise<{ apiKeyId: string; enabled: false }> {
  const updated = await db.sql.query(
    "UPDATE launch_bindings SET enabled = false, version = version + 1, updated_at = now() WHERE api_key_id = $1",
    [apiKeyId],
  );
  if (!updated.rowCount && !(await db.sql.query("SELECT 1 FROM api_keys WHERE id = $1", [apiKeyId])).rowCount)
    throw new AppError("not_found", `key ${apiKeyId} not found`);
  return { apiKeyId, enabled: false };
}

/**
 * An alias of the integration was withdrawn (from one key, or removed altogether): the bindings
 * naming it move their version, so launches through it stay dead when it is granted again. Call
 * it in the withdrawal's own transaction.
 */
export async function endLaunchesThroughAlias(
  tx: Database,
  input: { integrationId: string; aliases: string[]; apiKeyId?: string },
): Promise<void> {
  await tx.sql.query(
    `UPDATE launch_bindings SET version = version + 1, updated_at = now()
     WHERE integration_id = $1 AND public_name = ANY ($2::text[]) AND ($3::text IS NULL OR api_key_id = $3)`,
    [input.integrationId, input.aliases, input.apiKeyId ?? null],
  );
}

/** The launch bindings of an organization's keys, by key id (the console's key list). */
export async function listLaunchBindings(
  db: Database,
  organizationId: string,
): Promise<Map<string, LaunchBindingRecord>> {
  const { rows } = await db.sql.query<{ api_key_id: string; public_name: string; slug: string; enabled: boolean }>(
    `SELECT b.api_key_id, b.public_name, i.slug, b.enabled FROM launch_bindings b
     JOIN api_keys k ON k.id = b.api_key_id JOIN integrations i ON i.id = b.integration_id
     WHERE k.organization_id = $1`,
    [organizationId],
  );
  return new Map(
    rows.map((row) => [
      row.api_key_id,
      { apiKeyId: row.api_key_id, publicName: row.public_name, integration: row.slug, enabled: row.enabled },
    ]),
  );
}
