import { router } from "../../../trpc";
import { acceptInvitation } from "./accept-invitation";
import { describeInvitation } from "./describe-invitation";

/**
 * The page an invitation link opens: public (the invitee has no session yet), authorized by
 * the link's token alone.
 */
export const staffInvitationsRouter = router({ describe: describeInvitation, accept: acceptInvitation });
