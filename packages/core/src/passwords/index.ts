// @mga/core/passwords: what the rest of the service may use of this area; everything else is internal.
export { hashPassword } from "./password-hash";
export { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from "./password-policy";
