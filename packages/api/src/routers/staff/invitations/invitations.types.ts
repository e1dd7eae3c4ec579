import { z } from "zod";

import { staffRoleSchema } from "../staff.types";

const token = z.string().min(16).max(200);

export const describeInvitationInput = z.strictObject({ token });
export const describeInvitationOutput = z.strictObject({
  email: z.string(),
  role: staffRoleSchema,
  expires_at: z.iso.datetime(),
});

export const acceptInvitationInput = z.strictObject({ token, password: z.string().min(1).max(1000) });
export const acceptInvitationOutput = z.strictObject({ email: z.string(), role: staffRoleSchema });
