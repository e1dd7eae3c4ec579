import { z } from "zod";

import { emailAddressSchema } from "@mga/core/partners/users";
import { STAFF_STATUSES } from "@mga/core/staff";

import { staffId, staffRoleSchema } from "../staff.types";

/** Staff accounts and invitations. */
export const memberSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  status: z.enum(STAFF_STATUSES),
  locked_until: z.iso.datetime().nullable(),
  last_sign_in_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export const inviteSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  invited_by: z.string(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
});

export const listMembersOutput = z.strictObject({ members: z.array(memberSchema), invites: z.array(inviteSchema) });

export const inviteMemberInput = z.strictObject({
  email: z.string().trim().pipe(emailAddressSchema),
  role: staffRoleSchema,
});
export const inviteMemberOutput = z.strictObject({ invite: inviteSchema, token: z.string() });

export const memberIdInput = z.strictObject({ id: staffId });
export const revokeInviteOutput = z.strictObject({ revoked: z.literal(true) });

export const setMemberRoleInput = z.strictObject({ id: staffId, role: staffRoleSchema });
export const setMemberStatusInput = z.strictObject({ id: staffId, status: z.enum(STAFF_STATUSES) });
