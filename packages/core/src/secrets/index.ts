// @mga/core/secrets: what the rest of the service may use of this area; everything else is internal.
export { MIN_SECRET_KEY_LENGTH, serverSecrets } from "./server-secrets";
