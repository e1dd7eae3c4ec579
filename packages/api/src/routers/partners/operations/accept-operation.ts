import type { PartnerUserRecord } from "@mga/core/partners/users";

import type { ApiContext } from "../../../context";
import { userToWire } from "../users/to-wire";

/** The 202 body of every lifecycle request: the operation (as the user's summary shows it) and the user. */
export function acceptedOperation(ctx: ApiContext, accepted: PartnerUserRecord) {
  const user = userToWire(accepted);
  return {
    request_id: ctx.requestId,
    operation: user.lifecycle_operation as NonNullable<typeof user.lifecycle_operation>,
    user,
  };
}
