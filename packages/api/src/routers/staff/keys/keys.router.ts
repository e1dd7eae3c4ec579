import { router } from "../../../trpc";
import { bindLaunch } from "./bind-launch";
import { createKey } from "./create-key";
import { getKey } from "./get-key";
import { keyScopes } from "./key-scopes";
import { listExpiringKeys } from "./list-expiring-keys";
import { listKeys } from "./list-keys";
import { revokeKey } from "./revoke-key";
import { rollKey } from "./roll-key";
import { setRateLimit } from "./set-rate-limit";
import { unbindLaunch } from "./unbind-launch";
import { updateKey } from "./update-key";

/** API keys: everyone reads; admins create, edit, roll, revoke, limit and bind them (every change audited). */
export const staffKeysRouter = router({
  scopes: keyScopes,
  list: listKeys,
  get: getKey,
  expiring: listExpiringKeys,
  create: createKey,
  update: updateKey,
  roll: rollKey,
  revoke: revokeKey,
  setRateLimit,
  bindLaunch,
  unbindLaunch,
});
