import { router } from "../../../trpc";
import { addAlias } from "./add-alias";
import { aliasRule } from "./alias-rule";
import { chatAnswerLimits } from "./chat-answer-limits";
import { createStaffIntegration } from "./create-integration";
import { getStaffIntegration } from "./get-integration";
import { listStaffIntegrations } from "./list-integrations";
import { removeAlias } from "./remove-alias";
import { setAliasGrant } from "./set-alias-grant";
import { setChatAnswerLimit } from "./set-chat-answer-limit";
import { setIntegrationStatus } from "./set-integration-status";

/** Partner integrations, their public aliases and which keys each alias is granted to, and their users' chat limit. */
export const staffIntegrationsRouter = router({
  aliasRule,
  list: listStaffIntegrations,
  get: getStaffIntegration,
  create: createStaffIntegration,
  setStatus: setIntegrationStatus,
  addAlias,
  removeAlias,
  setAliasGrant,
  chatAnswerLimits,
  setChatAnswerLimit,
});
