import { router } from "../../trpc";
import { staffIntegrationsRouter } from "./integrations.router";
import { staffInvitationsRouter } from "./invitations.router";
import { staffKeysRouter } from "./keys.router";
import { staffMembersRouter } from "./members.router";
import { staffOrganizationsRouter } from "./organizations.router";
import { staffPartnerImportsRouter, staffPartnerTeamsRouter } from "./partner-teams.router";
import { staffPartnerUsersRouter } from "./partner-users.router";
import { search } from "./search.router";
import { me, signIn, signOut } from "./session";
import { staffAuditRouter, staffConversationsRouter, staffOutboxRouter } from "./support.router";

/**
 * The admin console's procedures (served on /trpc, never on /v1). Queries need a signed-in
 * staff member; mutations also the CSRF token, and all but sign-in/out the admin role.
 * Invitation links are the exception: their token alone lets the invitee in.
 * Every mutation is written to the audit log.
 */
export const staffRouter = router({
  signIn,
  signOut,
  me,
  search,
  members: staffMembersRouter,
  invitations: staffInvitationsRouter,
  organizations: staffOrganizationsRouter,
  integrations: staffIntegrationsRouter,
  keys: staffKeysRouter,
  partnerUsers: staffPartnerUsersRouter,
  partnerTeams: staffPartnerTeamsRouter,
  partnerImports: staffPartnerImportsRouter,
  conversations: staffConversationsRouter,
  outbox: staffOutboxRouter,
  audit: staffAuditRouter,
});
