import { requestProfileChange as start } from "@mga/core/partners/operations";

import { operationRequestProcedure } from "./operation-request-procedure";
import { profileChangeInput } from "./operations.types";

export const requestProfileChange = operationRequestProcedure({
  segment: "profile-changes",
  scope: "embed:users:write",
  input: profileChangeInput,
  summary: "Change a user's email and/or name",
  description:
    "202 with the operation. Send email, name or both; a change that leaves both as they are is 400 (nothing to change). Partner-created identities are updated directly. For a pre-existing account an email change waits for verification at the new address (verification_pending; the old profile stays active); a name-only change needs an audited staff override (409 identity_conflict).",
  accepted: "Accepted: the change runs in the background; poll GET …/user-operations/{operation_id}",
  start: (deps, integration, input) =>
    start(deps, integration, input.external_user_id, { email: input.email, name: input.name }),
});
