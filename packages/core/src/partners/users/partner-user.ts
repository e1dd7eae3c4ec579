import type { OperationStatus, OperationType } from "../operations/operation-values";
import type { TeamStatus } from "../teams/team-status";
import type {
  BlockingReason,
  ExperienceType,
  IdentityOrigin,
  MappingStatus,
  ProvisioningStatus,
  SyncStatus,
  UserStatus,
} from "./partner-user-values";

/** A partner user as the domain sees it (spec 2.9); the transport picks the public fields. */
export interface PartnerUserRecord {
  id: string;
  integration: string;
  externalUserId: string;
  team: { id: string; externalTeamId: string; name: string; status: TeamStatus } | null;
  assignmentVersion: number;
  identityOrigin: IdentityOrigin | null;
  experienceType: ExperienceType;
  mappingStatus: MappingStatus;
  status: UserStatus;
  provisioningStatus: ProvisioningStatus;
  wordpressLinked: boolean;
  chatIdentityLinked: boolean;
  accessVersion: number;
  accountGeneration: number;
  profileVersion: number;
  profileSyncStatus: SyncStatus;
  wordpressSyncStatus: SyncStatus;
  lifecycleOperation: OperationSummary | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Spec 2.10: what a partner may see of an operation. */
export interface OperationSummary {
  id: string;
  type: OperationType;
  status: OperationStatus;
  errorCode: string | null;
  updatedAt: Date;
}

/** Spec 2.9 `launch_eligibility`: every reason that applies, in the spec's order. */
export function launchEligibility(user: PartnerUserRecord): { canLaunch: boolean; blockingReasons: BlockingReason[] } {
  const reasons: BlockingReason[] = [];
  if (user.status === "disabled") reasons.push("disabled");
  if (user.status === "deleted") reasons.push("deleted");
  if (user.provisioningStatus === "pending") reasons.push("provisioning_pending");
  if (user.provisioningStatus === "failed") reasons.push("provisioning_failed");
  if (user.profileSyncStatus === "pending") reasons.push("profile_sync_pending");
  if (user.profileSyncStatus === "failed") reasons.push("profile_sync_failed");
  if (user.wordpressSyncStatus === "pending") reasons.push("wordpress_sync_pending");
  if (user.wordpressSyncStatus === "failed") reasons.push("wordpress_sync_failed");
  if (!user.wordpressLinked) reasons.push("wordpress_unlinked");
  if (!user.chatIdentityLinked) reasons.push("chat_identity_unlinked");
  return { canLaunch: reasons.length === 0, blockingReasons: reasons };
}

/** The columns every user query selects (with its team), and the row → record mapping. */
export const USER_COLUMNS = `u.id, u.external_user_id, u.assignment_version, u.identity_origin, u.experience_type, u.mapping_status,
  u.status, u.provisioning_status, u.site_account_id, u.chat_identity_id, u.access_version, u.account_generation,
  u.profile_version, u.profile_sync_status, u.wordpress_sync_status, u.created_at, u.updated_at,
  t.id AS team_id, t.external_team_id AS team_external_id, t.name AS team_name, t.status AS team_status,
  o.id AS op_id, o.type AS op_type, o.status AS op_status, o.error_code AS op_error_code, o.updated_at AS op_updated_at`;

/** Every user query reads from here: the user, its team and its latest lifecycle operation. */
export const USER_FROM = `partner_users u LEFT JOIN partner_teams t ON t.id = u.team_id LEFT JOIN lifecycle_operations o ON o.id = u.last_operation_id`;

export interface UserRow {
  id: string;
  external_user_id: string;
  assignment_version: number;
  identity_origin: PartnerUserRecord["identityOrigin"];
  experience_type: PartnerUserRecord["experienceType"];
  mapping_status: PartnerUserRecord["mappingStatus"];
  status: UserStatus;
  provisioning_status: ProvisioningStatus;
  site_account_id: string | null;
  chat_identity_id: string | null;
  access_version: number;
  account_generation: number;
  profile_version: number;
  profile_sync_status: SyncStatus;
  wordpress_sync_status: SyncStatus;
  created_at: Date;
  updated_at: Date;
  team_id: string | null;
  team_external_id: string | null;
  team_name: string | null;
  team_status: TeamStatus | null;
  op_id: string | null;
  op_type: OperationType | null;
  op_status: OperationStatus | null;
  op_error_code: string | null;
  op_updated_at: Date | null;
}

export function toPartnerUser(integration: string, row: UserRow): PartnerUserRecord {
  return {
    id: row.id,
    integration,
    externalUserId: row.external_user_id,
    team: row.team_id
      ? {
          id: row.team_id,
          externalTeamId: row.team_external_id ?? "",
          name: row.team_name ?? "",
          status: row.team_status ?? "active",
        }
      : null,
    assignmentVersion: row.assignment_version,
    identityOrigin: row.identity_origin,
    experienceType: row.experience_type,
    mappingStatus: row.mapping_status,
    status: row.status,
    provisioningStatus: row.provisioning_status,
    wordpressLinked: row.site_account_id !== null && row.mapping_status === "mapped",
    chatIdentityLinked: row.chat_identity_id !== null,
    accessVersion: row.access_version,
    accountGeneration: row.account_generation,
    profileVersion: row.profile_version,
    profileSyncStatus: row.profile_sync_status,
    wordpressSyncStatus: row.wordpress_sync_status,
    lifecycleOperation:
      row.op_id && row.op_type && row.op_status && row.op_updated_at
        ? {
            id: row.op_id,
            type: row.op_type,
            status: row.op_status,
            errorCode: row.op_error_code,
            updatedAt: row.op_updated_at,
          }
        : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
