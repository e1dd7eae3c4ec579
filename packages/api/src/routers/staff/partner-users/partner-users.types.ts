import { z } from "zod";

import { MIN_OVERRIDE_REASON_LENGTH } from "@mga/core/partners/operations";
import { emailAddressSchema, USER_SORTS, USER_STATUSES } from "@mga/core/partners/users";

import { operationSchema } from "../../partners/operations/operations.types";
import { listUsersOutput, partnerUserSchema, putUserInput } from "../../partners/users/users.types";
import { countSchema, externalId, staffCursor, staffId, staffLimit } from "../staff.types";

/** Partner users for support staff: the partner's view plus the contact details partners never read back. */
// The one email rule (core's shared/email.ts), after trimming what staff typed.
const email = z.string().trim().pipe(emailAddressSchema);
const name = z.string().trim().min(1).max(200);

export const userRefInput = z.strictObject({ integration_id: staffId, external_user_id: externalId });
export const integrationIdInput = z.strictObject({ integration_id: staffId });

/** Spec 4.10's counts: the whole integration, whatever the filters. */
export const userCountsSchema = listUsersOutput.shape.counts;

export const listPartnerUsersInput = z.strictObject({
  integration_id: staffId,
  q: z.string().trim().min(1).max(255).optional(),
  team_external_id: externalId.optional(),
  unassigned: z.boolean().optional(),
  status: z.enum(USER_STATUSES).optional(),
  sort: z.enum(USER_SORTS).optional(),
  limit: staffLimit(25),
  cursor: staffCursor,
});
/** The contact details partners never read back; staff see them beside each user. */
const contactSchema = z.strictObject({ email: z.string(), name: z.string().nullable() });
export const listPartnerUsersOutput = z.strictObject({
  users: z.array(partnerUserSchema.extend({ contact: contactSchema })),
  counts: userCountsSchema,
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
  total: countSchema,
});

/** PUT user's fields (the same rules), the user named by its integration's id. */
export const addPartnerUserInput = putUserInput.omit({ integration: true }).extend({ integration_id: staffId });
export const addPartnerUserOutput = z.strictObject({
  user: partnerUserSchema,
  outcome: z.enum(["created", "existing", "pending"]),
});

export const getPartnerUserOutput = z.strictObject({
  user: partnerUserSchema,
  contact: contactSchema,
  operations: z.array(operationSchema),
});

export const siteAccountForEmailInput = z.strictObject({ integration_id: staffId, email });
export const siteAccountForEmailOutput = z.strictObject({
  site_account_exists: z.boolean(),
  other_integrations: countSchema,
  hosted_product: z.boolean(),
});

export const setPartnerUserStatusInput = userRefInput.extend({ status: z.enum(USER_STATUSES).exclude(["deleted"]) });
export const requestDeletionInput = userRefInput.extend({ note: z.string().trim().max(500).optional() });
export const requestReprovisionInput = userRefInput.extend({ email, name: name.optional() });
/** The operation a deletion or reprovision started (the user's operations list shows its progress). */
export const operationStartedOutput = z.strictObject({ operation_id: z.string() });

export const overrideProfileInput = userRefInput.extend({
  email: email.optional(),
  name: name.optional(),
  reason: z
    .string()
    .trim()
    .min(
      MIN_OVERRIDE_REASON_LENGTH,
      `an override needs a reason of at least ${MIN_OVERRIDE_REASON_LENGTH} characters for the audit log`,
    )
    .max(500),
});

/** A partner user's hosted-chat conversations, paged like the console's other lists. */
export const listUserConversationsInput = userRefInput.extend({ limit: staffLimit(25), cursor: staffCursor });
export const listUserConversationsOutput = z.strictObject({
  conversations: z.array(
    z.strictObject({
      id: z.string(),
      key_id: z.string(),
      key_name: z.string(),
      title: z.string().nullable(),
      external_loan_id: z.string().nullable(),
      account_generation: z.int().min(1).nullable(),
      message_count: countSchema,
      created_at: z.iso.datetime(),
      updated_at: z.iso.datetime(),
    }),
  ),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
  total: countSchema,
});
