// @mga/core/local-site: the built-in site and chat identities that run when a partner has none of
// its own (SITE_ACCOUNTS_URL / CHAT_IDENTITIES_URL unset): site accounts, their passwords and
// password-setup links, the notification outbox that stands in for email, the site login, and the
// local implementations of the directory's ports (partners/ports). Everything else is internal.
export { LocalChatIdentities } from "./chat-identities";
export { localDirectory } from "./directory";
export { signInAtLocalSite } from "./login";
export { listOutbox } from "./outbox";
export {
  PASSWORD_SETUP_DAYS,
  isPasswordSetupLinkUsable,
  requestPasswordSetup,
  setPasswordFromSetupLink,
} from "./password-setup";
export { LocalSiteAccounts } from "./site-accounts";
