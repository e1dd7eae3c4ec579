import { router } from "../../../trpc";
import { bindLaunch } from "./bind-launch";
import { createKey } from "./create-key";
import { getKey } from "./get-key";
import { keyScopes } from "./key-scopes";
import { listKeys } from "./list-keys";
import { revokeKey } from "./revoke-key";
import { setRateLimit } from "./set-rate-limit";
import { unbindLaunch } from "./unbind-launch";

/** API keys: everyone reads; admins create, revoke, limit and bind them (every change audited). */
export const staffKeysRouter = router({
  scopes: keyScopes,
  list: listKeys,
  get: getKey,
  create: createKey,
  revoke: revokeKey,
  setRateLimit,
  bindLaunch,
  unbindLaunch,
});
