import { router } from "../../trpc";
import { staffAuditRouter } from "./audit/audit.router";
import { staffConversationsRouter } from "./conversations/conversations.router";
import { staffIntegrationsRouter } from "./integrations/integrations.router";
import { staffInvitationsRouter } from "./invitations/invitations.router";
import { staffKeysRouter } from "./keys/keys.router";
import { staffMembersRouter } from "./members/members.router";
import { staffOrganizationsRouter } from "./organizations/organizations.router";
import { staffOutboxRouter } from "./outbox/outbox.router";
import { staffPartnerImportsRouter } from "./partner-imports/partner-imports.router";
import { staffPartnerTeamsRouter } from "./partner-teams/partner-teams.router";
import { staffPartnerUsersRouter } from "./partner-users/partner-users.router";
import { search } from "./search/search";
import { me } from "./session/me";
import { signIn } from "./session/sign-in";
import { signOut } from "./session/sign-out";
import { staffUsageRouter } from "./usage/usage.router";
import { staffWebhooksRouter } from "./webhooks/webhooks.router";

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
  webhooks: staffWebhooksRouter,
  usage: staffUsageRouter,
});
