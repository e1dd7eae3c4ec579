import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";

/**
 * The staff console's global search (never exposed on /v1). One term is tried against each
 * kind of record: partner users by part of their external id, stored email (emails are kept
 * in plain, normalized form, so a part of one matches, any case) or name, organizations by id
 * or part of the name, integrations by id or part of the slug, keys by id, last four
 * characters or part of the name, conversations and lifecycle operations by exact id. Within
 * a kind, exact matches come first. Each kind returns at most SEARCH_LIMIT matches; `more`
 * says when there were others. `order` ranks the kinds (see rankKinds).
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
  name: string | null;
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
  /** Whether the first item matches the whole term (an id, a name, a slug, an email). */
  exact: boolean;
}

export const SEARCH_KINDS = ["organizations", "integrations", "keys", "users", "conversations", "operations"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface DirectorySearch {
  order: SearchKind[];
  users: Hits<UserHit>;
  organizations: Hits<OrganizationHit>;
  integrations: Hits<IntegrationHit>;
  keys: Hits<KeyHit>;
  conversations: Hits<ConversationHit>;
  operations: Hits<OperationHit>;
}

const hits = <T extends { exact?: boolean }>(rows: T[]): Hits<Omit<T, "exact">> => ({
  items: rows.slice(0, SEARCH_LIMIT).map(({ exact: _exact, ...item }) => item),
  more: rows.length > SEARCH_LIMIT,
  exact: rows[0]?.exact === true,
});

/**
 * The kinds in the order the console shows them: first those whose best hit is the whole
 * term ("Bayview Lending" found by its name, a key by its id), then the others with hits,
 * then the empty ones; within each band, the entities a search usually means (organizations,
 * integrations, keys) before the many users a partial email or id also matches.
 */
function rankKinds(found: Omit<DirectorySearch, "order">): SearchKind[] {
  const band = (kind: SearchKind) => (found[kind].exact ? 0 : found[kind].items.length ? 1 : 2);
  return [...SEARCH_KINDS].sort((a, b) => band(a) - band(b) || SEARCH_KINDS.indexOf(a) - SEARCH_KINDS.indexOf(b));
}

/** A key's last four as staff copy it from a table ("…AbCd") are the same four characters. */
const lastFourOf = (term: string) => term.replace(/^(…|\.\.\.)/, "");

export async function searchDirectory(db: Database, rawTerm: string): Promise<DirectorySearch> {
  const term = rawTerm.trim();
  if (term.length < 1 || term.length > 254) throw new AppError("invalid_request", "q: must be 1-254 characters");
  const lower = term.toLowerCase();
  const limit = SEARCH_LIMIT + 1;
  const q = <T extends object>(sql: string, params: unknown[]) =>
    db.sql.query<T & { exact: boolean }>(sql, [...params, limit]).then((result) => result.rows);
  const [users, organizations, integrations, keys, conversations, operations] = await Promise.all([
    q<UserHit>(
      `SELECT u.external_user_id AS "externalUserId", u.email, u.name, u.status, i.id AS "integrationId", i.slug AS "integrationSlug",
              o.id AS "organizationId", o.name AS "organizationName",
              (lower(u.external_user_id) = $1 OR u.email = $1 OR coalesce(lower(u.name) = $1, false)) AS exact
       FROM partner_users u JOIN integrations i ON i.id = u.integration_id JOIN organizations o ON o.id = i.organization_id
       WHERE strpos(lower(u.external_user_id), $1) > 0 OR strpos(lower(u.email), $1) > 0 OR strpos(lower(u.name), $1) > 0
       ORDER BY exact DESC, u.created_at, u.id LIMIT $2`,
      [lower],
    ),
    q<OrganizationHit>(
      `SELECT id, name, (id = $1 OR lower(name) = $2) AS exact FROM organizations WHERE id = $1 OR strpos(lower(name), $2) > 0 ORDER BY exact DESC, name, id LIMIT $3`,
      [term, lower],
    ),
    q<IntegrationHit>(
      `SELECT i.id, i.slug, i.status, o.id AS "organizationId", o.name AS "organizationName", (i.id = $1 OR i.slug = $2) AS exact
       FROM integrations i JOIN organizations o ON o.id = i.organization_id
       WHERE i.id = $1 OR strpos(i.slug, $2) > 0 ORDER BY exact DESC, i.slug, i.id LIMIT $3`,
      [term, lower],
    ),
    q<KeyHit>(
      `SELECT k.id, k.name, k.last_four AS "lastFour", k.status, o.id AS "organizationId", o.name AS "organizationName",
              (k.id = $1 OR k.last_four = $2 OR lower(k.name) = $3) AS exact
       FROM api_keys k JOIN organizations o ON o.id = k.organization_id
       WHERE k.id = $1 OR k.last_four = $2 OR strpos(lower(k.name), $3) > 0 ORDER BY exact DESC, k.created_at, k.id LIMIT $4`,
      [term, lastFourOf(term), lower],
    ),
    q<ConversationHit>(
      `SELECT c.id, c.api_key_id AS "keyId", c.title, c.external_user_id AS "externalUserId", o.id AS "organizationId", o.name AS "organizationName", true AS exact
       FROM conversations c JOIN organizations o ON o.id = c.organization_id WHERE c.id = $1 LIMIT $2`,
      [term],
    ),
    q<OperationHit>(
      `SELECT op.id, op.type, op.status, i.id AS "integrationId", u.external_user_id AS "externalUserId", o.id AS "organizationId", o.name AS "organizationName", true AS exact
       FROM lifecycle_operations op JOIN partner_users u ON u.id = op.partner_user_id
         JOIN integrations i ON i.id = op.integration_id JOIN organizations o ON o.id = i.organization_id
       WHERE op.id = $1 LIMIT $2`,
      [term],
    ),
  ]);
  const found = {
    users: hits(users),
    organizations: hits(organizations),
    integrations: hits(integrations),
    keys: hits(keys),
    conversations: hits(conversations),
    operations: hits(operations),
  };
  return { order: rankKinds(found), ...found };
}
