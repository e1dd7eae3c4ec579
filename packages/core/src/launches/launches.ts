import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import type { AuthenticatedKey } from "../keys/authenticate-api-key";
import { resolveIntegration } from "../partners/integrations/integrations";
import { launchEligibility } from "../partners/users/partner-user";
import { findPartnerUser } from "../partners/users/users";
import { hashSecret, newSecretToken } from "../ids/secret-token";

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
}

/**
 * POST /v1/embed-sessions (spec 4.8). The key must be bound to exactly the public name sent
 * (section 5 item 6); the user must be provisioned, active and launch-eligible. The code is
 * random (192 bits), returned once in the URL fragment and stored only as a hash, with the
 * user's access_version and generation, the loan context and the attribution (public name
 * and LOS/source) snapshotted now.
 */
export async function issueLaunch(
  db: Database,
  input: { key: AuthenticatedKey; publicName: string; externalUserId: string; loanContext: LoanContext; appUrl: string; now?: Date },
): Promise<IssuedLaunch> {
  const binding = await db.prisma.launchBinding.findUnique({ where: { apiKeyId: input.key.id } });
  if (!binding?.enabled || binding.publicName !== input.publicName) {
    throw new AppError("forbidden", `this key is not bound to launch for ${input.publicName}`);
  }
  const integration = await resolveIntegration(db, input.key, binding.publicName).catch(async () => {
    // An alias bound to this key resolves for launches even without an alias grant (the binding is the grant).
    const alias = await db.prisma.integrationAlias.findFirst({ where: { organizationId: input.key.organizationId, slug: binding.publicName }, include: { integration: true } });
    if (!alias || alias.integration.status !== "active") throw new AppError("forbidden", `integration ${input.publicName} is not available to this key`);
    return { id: alias.integration.id, organizationId: alias.integration.organizationId, slug: alias.integration.slug };
  });
  const user = await findPartnerUser(db, integration, input.externalUserId);
  if (!user) throw new AppError("identity_conflict", `user ${input.externalUserId} is not provisioned; PUT it first`);
  const eligibility = launchEligibility(user);
  if (!eligibility.canLaunch) throw new AppError("identity_conflict", `user ${input.externalUserId} cannot launch: ${eligibility.blockingReasons.join(", ")}`);

  const code = newSecretToken(24);
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + LAUNCH_CODE_SECONDS * 1000);
  const id = newId("lch");
  await db.prisma.launch.create({
    data: {
      id,
      apiKeyId: input.key.id,
      integrationId: integration.id,
      partnerUserId: user.id,
      codeHash: hashSecret(code),
      accessVersion: user.accessVersion,
      accountGeneration: user.accountGeneration,
      loanContext: input.loanContext as object,
      attribution: { public_name: binding.publicName, integration: integration.slug, los_source: integration.slug, api_key_id: input.key.id },
      expiresAt,
      createdAt: now,
    },
  });
  const launchUrl = `${input.appUrl.replace(/\/+$/, "")}/embed/partner/${encodeURIComponent(integration.slug)}#code=${code}`;
  return { launchId: id, launchUrl, expiresAt };
}

