import type { Database } from "../../db/database";
import { normalizeEmail } from "../../shared/email";
import type { ResolvedIntegration } from "../integrations/integrations";
import type { SiteAccounts } from "../ports/site-accounts";

/**
 * What giving a user of this integration an address would link it to: identity matching (spec
 * 3.1/4.10) links a user to the existing site account of its email instead of creating one.
 * Staff see this before they confirm a reprovision or an email override. Counts only: never
 * which organizations or integrations use the account.
 */
export interface SiteAccountForEmail {
  exists: boolean;
  /** Integrations other than this one with a user (not deleted) linked to the account. */
  otherIntegrations: number;
  /** The account is the person's own account of the hosted product (not created by a partner). */
  hostedProduct: boolean;
}

export async function findSiteAccountForEmail(
  deps: { db: Database; siteAccounts: SiteAccounts },
  integration: ResolvedIntegration,
  email: string,
): Promise<SiteAccountForEmail> {
  const account = await deps.siteAccounts.findByEmail(normalizeEmail(email));
  if (!account) return { exists: false, otherIntegrations: 0, hostedProduct: false };
  const { rows } = await deps.db.sql.query<{ n: number }>(
    "SELECT count(DISTINCT integration_id)::int AS n FROM partner_users WHERE site_account_id = $1 AND status <> 'deleted' AND integration_id <> $2",
    [account.id, integration.id],
  );
  return { exists: true, otherIntegrations: rows[0]?.n ?? 0, hostedProduct: account.origin === "self" };
}
