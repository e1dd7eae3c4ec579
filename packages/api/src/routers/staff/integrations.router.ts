import { ALIAS_GRANT_RULE, AppError, createIntegration, getIntegrationById, listIntegrations, setAliasGrant, updateIntegration } from "@mga/core";
import { z } from "zod";
import { integrationToOperatorView } from "../../operator/operator-views";
import { adminProcedure, router, staffProcedure } from "../../trpc";
import { auditStaffAction } from "./audit-action";
import { staffId } from "./staff.types";

/** Partner integrations, their public aliases and which keys each alias is granted to. */
const slug = z.string().trim().min(1).max(100);

export const staffIntegrationsRouter = router({
  /** The alias rule in the words the CLI's help uses, for the console's integration and key pages. */
  aliasRule: staffProcedure.query(() => ALIAS_GRANT_RULE),

  list: staffProcedure.input(z.strictObject({ organization_id: staffId })).query(async ({ ctx, input }) => {
    const integrations = await listIntegrations(ctx.db, input.organization_id);
    const { rows } = await ctx.db.sql.query<{ integration_id: string; users: number }>(
      "SELECT integration_id, count(*)::int AS users FROM partner_users WHERE status <> 'deleted' AND integration_id = ANY($1) GROUP BY integration_id",
      [integrations.map((integration) => integration.id)],
    );
    const users = new Map(rows.map((row) => [row.integration_id, row.users]));
    return integrations.map((integration) => ({ ...integrationToOperatorView(integration), users: users.get(integration.id) ?? 0 }));
  }),

  get: staffProcedure.input(z.strictObject({ id: staffId })).query(async ({ ctx, input }) => integrationToOperatorView(await getIntegrationById(ctx.db, input.id))),

  create: adminProcedure
    .input(z.strictObject({ organization_id: staffId, slug, aliases: z.array(slug).max(20).default([]) }))
    .mutation(async ({ ctx, input }) => {
      const integration = await createIntegration(ctx.db, { organizationId: input.organization_id, slug: input.slug, aliases: input.aliases });
      await auditStaffAction(ctx, "integration.create", integration.id, { slug: integration.slug, aliases: input.aliases });
      return integrationToOperatorView(integration);
    }),

  /** Disabling refuses every partner request naming it (403) until it is enabled again. */
  setStatus: adminProcedure.input(z.strictObject({ id: staffId, status: z.enum(["active", "disabled"]) })).mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    const integration = await updateIntegration(ctx.db, { organizationId: current.organizationId, slug: current.slug, status: input.status });
    await auditStaffAction(ctx, `integration.${input.status === "disabled" ? "disable" : "enable"}`, integration.id, { slug: integration.slug });
    return integrationToOperatorView(integration);
  }),

  addAlias: adminProcedure.input(z.strictObject({ id: staffId, alias: slug })).mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    const integration = await updateIntegration(ctx.db, { organizationId: current.organizationId, slug: current.slug, addAliases: [input.alias] });
    await auditStaffAction(ctx, "integration.alias_add", integration.id, { alias: input.alias });
    return integrationToOperatorView(integration);
  }),

  removeAlias: adminProcedure.input(z.strictObject({ id: staffId, alias: slug })).mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    // Removing a name the integration does not have would otherwise succeed (and be audited) doing nothing.
    if (!current.aliases.some((alias) => alias.slug === input.alias)) throw new AppError("not_found", `alias ${input.alias} is not an alias of ${current.slug}`);
    const integration = await updateIntegration(ctx.db, { organizationId: current.organizationId, slug: current.slug, removeAliases: [input.alias] });
    await auditStaffAction(ctx, "integration.alias_remove", integration.id, { alias: input.alias });
    return integrationToOperatorView(integration);
  }),

  /** An alias resolves only for the keys granted it (spec section 5 item 4). */
  setAliasGrant: adminProcedure
    .input(z.strictObject({ id: staffId, alias: slug, key_id: staffId, granted: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const current = await getIntegrationById(ctx.db, input.id);
      if (!current.aliases.some((alias) => alias.slug === input.alias)) throw new AppError("not_found", `alias ${input.alias} is not an alias of ${current.slug}`);
      const integration = await setAliasGrant(ctx.db, { organizationId: current.organizationId, alias: input.alias, apiKeyId: input.key_id, granted: input.granted });
      await auditStaffAction(ctx, input.granted ? "integration.alias_grant" : "integration.alias_revoke", integration.id, { alias: input.alias, key_id: input.key_id });
      return integrationToOperatorView(integration);
    }),
});
