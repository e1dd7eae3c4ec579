// @mga/core/sign-ins: what the rest of the service may use of this area; everything else is internal.
export { addressBucket } from "./sign-in-throttle";
