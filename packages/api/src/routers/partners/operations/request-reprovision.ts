import { requestReprovision as start } from "@mga/core/partners/operations";

import { operationRequestProcedure } from "./operation-request-procedure";
import { reprovisionInput } from "./operations.types";

export const requestReprovision = operationRequestProcedure({
  segment: "reprovision",
  scope: "embed:users:write",
  input: reprovisionInput,
  summary: "Reprovision a deleted user",
  description:
    "202: a new account generation (account_generation + 1) with new site and chat identities; the user is active with provisioning pending until the operation completes. Earlier generations' conversations stay unreadable. Only for deleted users (else 409 identity_conflict).",
  accepted: "Accepted: the reprovisioning runs in the background; poll GET …/user-operations/{operation_id}",
  start: (deps, integration, input) =>
    start(deps, integration, input.external_user_id, { email: input.email, name: input.name }),
});
