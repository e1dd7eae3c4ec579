import { router } from "../../../trpc";
import { addPartnerUser } from "./add-partner-user";
import { countStaffPartnerUsers } from "./count-partner-users";
import { getStaffPartnerUser } from "./get-partner-user";
import { listStaffPartnerUsers } from "./list-partner-users";
import { listStaffUserConversations } from "./list-user-conversations";
import { overrideProfile } from "./override-profile";
import { requestStaffDeletion } from "./request-deletion";
import { requestStaffReprovision } from "./request-reprovision";
import { setStaffPartnerUserStatus } from "./set-partner-user-status";
import { siteAccountForEmail } from "./site-account-for-email";

/** Partner users for support staff: the partner's view plus the contact details partners never read back. */
export const staffPartnerUsersRouter = router({
  list: listStaffPartnerUsers,
  counts: countStaffPartnerUsers,
  get: getStaffPartnerUser,
  conversations: listStaffUserConversations,
  add: addPartnerUser,
  siteAccountForEmail,
  setStatus: setStaffPartnerUserStatus,
  requestDeletion: requestStaffDeletion,
  requestReprovision: requestStaffReprovision,
  overrideProfile,
});
