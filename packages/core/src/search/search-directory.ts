import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";

/**
 * The staff console's global search (never exposed on /v1). One term is tried against each
 * kind of record: partner users by part of their external id or stored email (emails are kept
 * in plain, normalized form, so a part of one matches, any case), organizations by id or part
 * of the name, integrations by id or part of the slug, keys by id or last four characters,
 * conversations and lifecycle operations by exact id. Each kind returns at most
 * SEARCH_LIMIT matches; `more` says when there were others.
 */
export const SEARCH_LIMIT = 20;

interface OrgRef {
  organizationId: string;
  organizationName: string;
}
export interface UserHit extends OrgRef {
  integrationId: string;
  integrationSlug: string;
  externalUserId: string;
  email: string;
  status: string;
}
export interface OrganizationHit {
  id: string;
  name: string;
}
export interface IntegrationHit extends OrgRef {
  id: string;
  slug: string;
  status: string;
}
export interface KeyHit extends OrgRef {
  id: string;
  name: string;
  lastFour: string;
  status: string;
}
export interface ConversationHit extends OrgRef {
  id: string;
  keyId: string;
  title: string | null;
  externalUserId: string;
}
export interface OperationHit extends OrgRef {
  id: string;
  type: string;
  status: string;
  integrationId: string;
  externalUserId: string;
}

export interface Hits<T> {
  items: T[];
  more: boolean;
}

export interface DirectorySearch {
  users: Hits<UserHit>;
  organizations: Hits<OrganizationHit>;
  integrations: Hits<IntegrationHit>;
  keys: Hits<KeyHit>;
  conversations: Hits<ConversationHit>;
  operations: Hits<OperationHit>;
}

const hits = <T>(rows: T[]): Hits<T> => ({ items: rows.slice(0, SEARCH_LIMIT), more: rows.length > SEARCH_LIMIT });

/** A key's last four as staff copy it from a table ("…AbCd") are the same four characters. */
const lastFourOf = (term: string) => term.replace(/^(…|\.\.\.)/, "");

export async function searchDirectory(db: Database, rawTerm: string): Promise<DirectorySearch> {
  const term = rawTerm.trim();
  if (term.length < 1 || term.length > 254) throw new AppError("invalid_request", "q: must be 1-254 characters");
  const lower = term.toLowerCase();
  const limit = SEARCH_LIMIT + 1;
  const q = <T extends object>(sql: string, params: unknown[]) => db.sql.query<T>(sql, [...params, limit]).then((result) => result.rows);
  const [users, organizations, integrations, keys, conversations, operations] = await Promise.all([
    q<UserHit>(
      `SELECT u.external_user_id AS "externalUserId", u.email, u.status, i.id AS "integrationId", i.slug AS "integrationSlug",
              o.id AS "organizationId", o.name AS "organizationName"
       FROM partner_users u JOIN integrations i ON i.id = u.integration_id JOIN organizations o ON o.id = i.organization_id
       WHERE strpos(lower(u.external_user_id), $1) > 0 OR strpos(lower(u.email), $1) > 0
       ORDER BY lower(u.external_user_id) = $1 OR u.email = $1 DESC, u.created_at, u.id LIMIT $2`,
      [lower],
    ),
    q<OrganizationHit>(`SELECT id, name FROM organizations WHERE id = $1 OR strpos(lower(name), $2) > 0 ORDER BY name, id LIMIT $3`, [term, lower]),
    q<IntegrationHit>(
      `SELECT i.id, i.slug, i.status, o.id AS "organizationId", o.name AS "organizationName"
       FROM integrations i JOIN organizations o ON o.id = i.organization_id
       WHERE i.id = $1 OR strpos(i.slug, $2) > 0 ORDER BY i.slug, i.id LIMIT $3`,
      [term, lower],
    ),
    q<KeyHit>(
      `SELECT k.id, k.name, k.last_four AS "lastFour", k.status, o.id AS "organizationId", o.name AS "organizationName"
       FROM api_keys k JOIN organizations o ON o.id = k.organization_id
       WHERE k.id = $1 OR k.last_four = $2 ORDER BY k.created_at, k.id LIMIT $3`,
      [term, lastFourOf(term)],
    ),
    q<ConversationHit>(
      `SELECT c.id, c.api_key_id AS "keyId", c.title, c.external_user_id AS "externalUserId", o.id AS "organizationId", o.name AS "organizationName"
       FROM conversations c JOIN organizations o ON o.id = c.organization_id WHERE c.id = $1 LIMIT $2`,
      [term],
    ),
    q<OperationHit>(
      `SELECT op.id, op.type, op.status, i.id AS "integrationId", u.external_user_id AS "externalUserId", o.id AS "organizationId", o.name AS "organizationName"
       FROM lifecycle_operations op JOIN partner_users u ON u.id = op.partner_user_id
         JOIN integrations i ON i.id = op.integration_id JOIN organizations o ON o.id = i.organization_id
       WHERE op.id = $1 LIMIT $2`,
      [term],
    ),
  ]);
  return {
    users: hits(users),
    organizations: hits(organizations),
    integrations: hits(integrations),
    keys: hits(keys),
    conversations: hits(conversations),
    operations: hits(operations),
  };
}
