// @mga/core/partners/operations: what the rest of the service may use of this area; everything else is internal.
export { OPERATION_STATUSES, OPERATION_TYPES } from "./operation-values";
export { acceptOperationRequest } from "./accept-operation";
export { applyProfileOverride, MIN_OVERRIDE_REASON_LENGTH } from "./apply-profile-override";
export { confirmEmailVerification } from "./confirm-email-verification";
export { expireStaleVerifications } from "./expire-stale-verifications";
export { getOperation } from "./get-operation";
export { listUserOperations } from "./list-user-operations";
export type { OperationDeps } from "./operation-deps";
export type { OperationRecord } from "./operation-record";
export { requestDeletion } from "./request-deletion";
export { requestProfileChange } from "./request-profile-change";
export { requestReprovision } from "./request-reprovision";
