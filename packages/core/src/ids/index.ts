// @mga/core/ids: what the rest of the service may use of this area; everything else is internal.
export { newId, newTimeOrderedId } from "./new-id";
export { hashSecret, sameSecret } from "./secret-token";
