// @mga/core/partners/ports: the systems behind partner users (site accounts, chat identities) as
// ports, and their HTTP adapters; the built-in implementations are @mga/core/local-site.
export type { ChatIdentities } from "./chat-identities";
export { HttpChatIdentities } from "./http-chat-identities";
export { HttpSiteAccounts } from "./http-site-accounts";
export type { SiteAccount, SiteAccounts } from "./site-accounts";
