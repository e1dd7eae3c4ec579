// @mga/core/launches: what the rest of the service may use of this area; everything else is internal.
export { chatHeader } from "./chat-header";
export {
  completeSiteLogin,
  consumeLaunchCode,
  exchangeSessionForChatToken,
  LAUNCH_CODE_STATUS_HEADER,
  type LaunchCodeRefusal,
  verifyChatToken,
} from "./embed-auth";
export { embeddedMessageInput, embeddedOwner } from "./embedded-chat";
export { ALIAS_GRANT_RULE, bindLaunchKey, listLaunchBindings, unbindLaunchKey } from "./launch-bindings";
export type { LaunchBindingRecord } from "./launch-bindings";
export { issueLaunch } from "./launches";
export { LOAN_PROGRAMS, LOAN_PURPOSES, MILESTONES, OCCUPANCIES, PROPERTY_TYPES } from "./loan-context";
