import { launchEligibility, type PartnerUserRecord } from "@mga/core/partners/users";

import { operationSummaryToWire } from "../operations/to-wire";

/** The sanitized public form of a partner user (spec 2.9): no names, emails or account ids. */
export function userToWire(user: PartnerUserRecord) {
  const eligibility = launchEligibility(user);
  return {
    integration: user.integration,
    external_user_id: user.externalUserId,
    team: user.team
      ? { id: user.team.id, external_team_id: user.team.externalTeamId, name: user.team.name, status: user.team.status }
      : null,
    assignment_version: user.assignmentVersion,
    identity_origin: user.identityOrigin,
    experience_type: user.experienceType,
    mapping_status: user.mappingStatus,
    launch_eligibility: { can_launch: eligibility.canLaunch, blocking_reasons: eligibility.blockingReasons },
    status: user.status,
    provisioning_status: user.provisioningStatus,
    wordpress_linked: user.wordpressLinked,
    access_version: user.accessVersion,
    account_generation: user.accountGeneration,
    profile_version: user.profileVersion,
    profile_sync_status: user.profileSyncStatus,
    wordpress_sync_status: user.wordpressSyncStatus,
    lifecycle_operation: user.lifecycleOperation ? operationSummaryToWire(user.lifecycleOperation) : null,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
