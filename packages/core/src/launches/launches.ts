import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { hashSecret, newSecretToken } from "../ids/secret-token";
import type { AuthenticatedKey } from "../keys/authenticate-api-key";
import { resolveIntegration } from "../partners/integrations/integrations";
import { findPartnerUser } from "../partners/users/get-user";
import { launchEligibility } from "../partners/users/partner-user";

/** Spec 3.6: a launch code lives two minutes. */
export const LAUNCH_CODE_SECONDS = 120;

export interface LoanContext {
  external_loan_id: string;
  program?: string | undefined;
  purpose?: string | undefined;
  occupancy?: string | undefined;
  property_type?: string | undefined;
  property_state?: string | undefined;
  units?: number | undefined;
  milestone?: string | undefined;
  application_date?: string | undefined;
}

export interface IssuedLaunch {
  launchId: string;
  /** `{appUrl}/embed/partner/<canonical integration>#code=<single-use code>` (never an alias). */
  launchUrl: string;
  expiresAt: Date;
  /** Which integration and partner user it launched (usage counts launches and active users per integration). */
  integrationId: string;
  partnerUserId: string;
}

/**
 * POST /v1/embed-sessions (spec 4.8). The key must be bound to exactly the public name sent
 * (section 5 item 6); the user must be provisioned, active and launch-eligible. The code is
 * random (192 bits), returned once in the URL fragment and stored only as a hash, with the
 * user's access_version and generation, the key's binding version, the integration's
 * access_version, the loan context and the attribution (public name and LOS/source)
 * snapshotted now.
 */
export async function issueLaunch(
  db: Database,
  input: {
    key: AuthenticatedKey;
    publicName: string;
    externalUserId: string;
    loanContext: LoanContext;
    appUrl: string;
    now?: Date;
  },
): Promise<IssuedLaunch> {
  // Each version is read with the state it stands for (the binding's with enabled, the
  // integration's with its status), so a revocation racing this launch either is seen here or
  // moves the version past the snapshot and the launch is dead at its first use.
  const { rows: bindings } = await db.sql.query<{ enabled: boolean; publicName: string; version: number }>(
    `SELECT enabled, public_name AS "publicName", version FROM launch_bindings WHERE api_key_id = $1`,
    [input.key.id],
  );
  const binding = bindings[0];
  if (!binding?.enabled || binding.publicName !== input.publicName) {
    throw new AppError("forbidden", `this key is not bound to launch for ${input.publicName}`);
  }
  // The same rule as every partner request (ALIAS_GRANT_RULE): an alias only for the keys it is
  // granted to, so withdrawing the grant stops launches through it although the binding stays.
  const integration = await resolveIntegration(db, input.key, binding.publicName);
  const user = await findPartnerUser(db, integration, input.externalUserId);
  if (!user) throw new AppError("identity_conflict", `user ${input.externalUserId} is not provisioned; PUT it first`);
  const eligibility = launchEligibility(user);
  if (!eligibility.canLaunch)
    throw new AppError(
      "identity_conflict",
      `user ${input.externalUserId} cannot launch: ${eligibility.blockingReasons.join(", ")}`,
    );

  const code = newSecretToken(24);
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + LAUNCH_CODE_SECONDS * 1000);
  const id = newId("lch");
  const attribution = {
    public_name: binding.publicName,
    integration: integration.slug,
    los_source: integration.slug,
    api_key_id: input.key.id,
  };
  await db.sql.query(
    `INSERT INTO launches (id, api_key_id, integration_id, partner_user_id, code_hash, access_version, account_generation, binding_version, integration_access_version,
       loan_context, attribution, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      id,
      input.key.id,
      integration.id,
      user.id,
      hashSecret(code),
      user.accessVersion,
      user.accountGeneration,
      binding.version,
      integration.accessVersion,
      JSON.stringify(input.loanContext),
      JSON.stringify(attribution),
      expiresAt,
      now,
    ],
  );
  const launchUrl = `${input.appUrl.replace(/\/+$/, "")}/embed/partner/${encodeURIComponent(integration.slug)}#code=${code}`;
  return { launchId: id, launchUrl, expiresAt, integrationId: integration.id, partnerUserId: user.id };
}
