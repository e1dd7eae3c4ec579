import { requestDeletion as start } from "@mga/core/partners/operations";

import { operationRequestProcedure } from "./operation-request-procedure";
import { deletionInput } from "./operations.types";

export const requestDeletion = operationRequestProcedure({
  segment: "deletions",
  scope: "embed:users:delete",
  input: deletionInput,
  summary: "Delete a user",
  description:
    "202: access is cut at once (status disabled), then the deletion completes asynchronously (status deleted); poll the operation. No notification is sent to the user. A deletion already under way is returned as is.",
  accepted: "Accepted: the deletion runs in the background; poll GET …/user-operations/{operation_id}",
  start: (deps, integration, input) => start(deps, integration, input.external_user_id, { note: input.note }),
});
