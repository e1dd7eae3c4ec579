import {
  applyProfileOverride,
  countPartnerUsers,
  findSiteAccountForEmail,
  getPartnerUser,
  getPartnerUserContact,
  listPartnerUsers,
  listUserOperations,
  requestDeletion,
  requestReprovision,
  setPartnerUserStatus,
  USER_STATUSES,
} from "@mga/core";
import { z } from "zod";
import { adminProcedure, router, staffProcedure } from "../../trpc";
import { operationToWire } from "../partners/operations/to-wire";
import { userToWire } from "../partners/users/to-wire";
import { auditStaffAction } from "./audit-action";
import { integrationForStaff, operationDeps } from "./partner-directory";
import { externalId, staffCursor, staffId, staffLimit } from "./staff.types";

/** Partner users for support staff: the partner's view plus the contact details partners never read back. */
const userRef = z.strictObject({ integration_id: staffId, external_user_id: externalId });
const email = z.string().trim().min(3).max(254);
const name = z.string().trim().min(1).max(200);

export const staffPartnerUsersRouter = router({
  /** Spec 4.10's filters and counts; the counts cover the whole integration. */
  list: staffProcedure
    .input(
      z.strictObject({
        integration_id: staffId,
        q: z.string().trim().min(1).max(255).optional(),
        team_external_id: externalId.optional(),
        unassigned: z.boolean().optional(),
        status: z.enum(USER_STATUSES).optional(),
        limit: staffLimit(25),
        cursor: staffCursor,
      }),
    )
    .query(async ({ ctx, input }) => {
      const integration = await integrationForStaff(ctx, input.integration_id);
      const page = await listPartnerUsers(ctx.db, integration, {
        q: input.q,
        teamExternalId: input.team_external_id,
        unassigned: input.unassigned,
        status: input.status,
        limit: input.limit,
        cursor: input.cursor,
        withTotal: true,
      });
      return { users: page.users.map(userToWire), counts: page.counts, next_cursor: page.nextCursor, total: page.total ?? 0 };
    }),

  /** The same counts alone: they do not depend on a filter, so a refused filter does not hide them. */
  counts: staffProcedure.input(z.strictObject({ integration_id: staffId })).query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    return countPartnerUsers(ctx.db, integration.id);
  }),

  get: staffProcedure.input(userRef).query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const user = await getPartnerUser(ctx.db, integration, input.external_user_id);
    const [contact, operations] = await Promise.all([getPartnerUserContact(ctx.db, user.id), listUserOperations(ctx.db, integration, input.external_user_id)]);
    return { user: userToWire(user), contact, operations: operations.map(operationToWire) };
  }),

  /**
   * Whether an address already has a site account a user given it would be linked to (shown
   * before a reprovision or an email override is confirmed): counts only, never who uses it.
   */
  siteAccountForEmail: staffProcedure.input(z.strictObject({ integration_id: staffId, email })).query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const found = await findSiteAccountForEmail(operationDeps(ctx), integration, input.email);
    return { site_account_exists: found.exists, other_integrations: found.otherIntegrations, hosted_product: found.hostedProduct };
  }),

  setStatus: adminProcedure.input(userRef.extend({ status: z.enum(USER_STATUSES).exclude(["deleted"]) })).mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const user = await setPartnerUserStatus(operationDeps(ctx), integration, input.external_user_id, input.status);
    await auditStaffAction(ctx, input.status === "disabled" ? "partner_user.disable" : "partner_user.reactivate", `${integration.slug}/${input.external_user_id}`);
    return userToWire(user);
  }),

  requestDeletion: adminProcedure.input(userRef.extend({ note: z.string().trim().max(500).optional() })).mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operationId = await requestDeletion(operationDeps(ctx), integration, input.external_user_id, { note: input.note });
    await auditStaffAction(ctx, "partner_user.delete", `${integration.slug}/${input.external_user_id}`, { operation_id: operationId });
    return { operation_id: operationId };
  }),

  requestReprovision: adminProcedure.input(userRef.extend({ email, name: name.optional() })).mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operationId = await requestReprovision(operationDeps(ctx), integration, input.external_user_id, { email: input.email, name: input.name });
    await auditStaffAction(ctx, "partner_user.reprovision", `${integration.slug}/${input.external_user_id}`, { operation_id: operationId });
    return { operation_id: operationId };
  }),

  /** Audited by core with the reason (spec 3.3): an email change without verification, or a name change. */
  overrideProfile: adminProcedure
    .input(userRef.extend({ email: email.optional(), name: name.optional(), reason: z.string().trim().min(1).max(500) }))
    .mutation(async ({ ctx, input }) => {
      const integration = await integrationForStaff(ctx, input.integration_id);
      const operation = await applyProfileOverride(operationDeps(ctx), integration, input.external_user_id, {
        email: input.email,
        name: input.name,
        reason: input.reason,
        actor: ctx.staff.email,
      });
      return operationToWire(operation);
    }),
});
