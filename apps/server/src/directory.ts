import type { DirectoryPorts } from "@mga/api";
import { type Database } from "@mga/core/db";
import { localDirectory } from "@mga/core/local-site";
import { HttpChatIdentities, HttpSiteAccounts } from "@mga/core/partners/ports";

import type { Env } from "./env";

/** The systems behind partner users: the HTTP adapters when configured, else the built-in local ones. */
export function directoryFromEnv(env: Env, db: Database): DirectoryPorts {
  const local = localDirectory(db);
  if (env.SITE_ACCOUNTS_URL && !(env.SITE_ACCOUNTS_USERNAME && env.SITE_ACCOUNTS_APP_PASSWORD)) {
    throw new Error("SITE_ACCOUNTS_URL needs SITE_ACCOUNTS_USERNAME and SITE_ACCOUNTS_APP_PASSWORD");
  }
  if (env.CHAT_IDENTITIES_URL && !env.CHAT_IDENTITIES_TOKEN)
    throw new Error("CHAT_IDENTITIES_URL needs CHAT_IDENTITIES_TOKEN");
  return {
    siteAccounts: env.SITE_ACCOUNTS_URL
      ? new HttpSiteAccounts({
          url: env.SITE_ACCOUNTS_URL,
          username: env.SITE_ACCOUNTS_USERNAME ?? "",
          applicationPassword: env.SITE_ACCOUNTS_APP_PASSWORD ?? "",
        })
      : local.siteAccounts,
    chatIdentities: env.CHAT_IDENTITIES_URL
      ? new HttpChatIdentities({ url: env.CHAT_IDENTITIES_URL, token: env.CHAT_IDENTITIES_TOKEN ?? "" })
      : local.chatIdentities,
  };
}
