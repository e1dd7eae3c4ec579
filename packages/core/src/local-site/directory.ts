import type { Database } from "../db/database";
import { LocalChatIdentities } from "./chat-identities";
import { LocalSiteAccounts } from "./site-accounts";

/** The built-in site-account system and chat identity store, used by the embedded default. */
export function localDirectory(db: Database) {
  return { siteAccounts: new LocalSiteAccounts(db), chatIdentities: new LocalChatIdentities(db) };
}
