import { type Database } from "@mga/core/db";
import { type ApiKeySummary } from "@mga/core/keys";
import { listLaunchBindings } from "@mga/core/launches";

import { keyToOperatorView } from "../../../operator/operator-views";

/** The key with its launch binding, so every procedure returning a key shows it as keys.get does. */
export async function keyViewWithBinding(db: Database, key: ApiKeySummary) {
  return keyToOperatorView(key, (await listLaunchBindings(db, key.organizationId)).get(key.id));
}
