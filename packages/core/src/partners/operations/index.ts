// @mga/core/partners/operations: what the rest of the service may use of this area; everything else is internal.
export { OPERATION_STATUSES, OPERATION_TYPES } from "./operation-values";
export {
  applyProfileOverride,
  MIN_OVERRIDE_REASON_LENGTH,
  confirmEmailVerification,
  expireStaleVerifications,
  getOperation,
  listUserOperations,
  requestDeletion,
  requestProfileChange,
  requestReprovision,
} from "./operations";
export type { OperationDeps, OperationRecord } from "./operations";
