import { listKeysExpiringWithin } from "@mga/core/keys";
import { listLaunchBindings } from "@mga/core/launches";
import { getOrganization } from "@mga/core/orgs";

import { keyToOperatorView } from "../../../operator/operator-views";
import { staffProcedure } from "../../../trpc";
import { expiringKeysInput, expiringKeysOutput } from "./keys.types";

/** Active keys expiring within `within_days` (7 by default), soonest first: of one organization, or of all. */
export const listExpiringKeys = staffProcedure
  .input(expiringKeysInput)
  .output(expiringKeysOutput)
  .query(async ({ ctx, input }) => {
    if (input.organization_id !== undefined) await getOrganization(ctx.db, input.organization_id);
    const keys = await listKeysExpiringWithin(ctx.db, {
      withinDays: input.within_days,
      organizationId: input.organization_id,
    });
    // Each key with its launch binding, as keys.list shows it.
    const organizations = [...new Set(keys.map((key) => key.organizationId))];
    const bindings = new Map(
      (await Promise.all(organizations.map((id) => listLaunchBindings(ctx.db, id)))).flatMap((byKey) => [...byKey]),
    );
    return keys.map((key) => keyToOperatorView(key, bindings.get(key.id)));
  });
