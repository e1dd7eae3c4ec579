import { type ResolvedIntegration } from "@mga/core/partners/integrations";
import { getPartnerUser } from "@mga/core/partners/users";

import type { ApiContext } from "../../../context";
import { userToWire } from "../users/to-wire";

/** The 202 body of every lifecycle request: the operation (as the user's summary shows it) and the user. */
export async function acceptedOperation(
  ctx: ApiContext & { integration: ResolvedIntegration },
  externalUserId: string,
) {
  const user = userToWire(await getPartnerUser(ctx.db, ctx.integration, externalUserId));
  return {
    request_id: ctx.requestId,
    operation: user.lifecycle_operation as NonNullable<typeof user.lifecycle_operation>,
    user,
  };
}
