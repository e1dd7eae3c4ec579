// @mga/core/partners/ports: what the rest of the service may use of this area; everything else is internal.
export type { ChatIdentities } from "./chat-identities";
export { HttpChatIdentities } from "./http-chat-identities";
export { HttpSiteAccounts } from "./http-site-accounts";
export { LocalChatIdentities } from "./local-chat-identities";
export { localDirectory } from "./local-directory";
export { PASSWORD_SETUP_DAYS, isPasswordSetupLinkUsable, requestPasswordSetup, setPasswordFromSetupLink } from "./local-password-setup";
export { LocalSiteAccounts } from "./local-site-accounts";
export { listOutbox } from "./notification-outbox";
export type { SiteAccount, SiteAccounts } from "./site-accounts";
