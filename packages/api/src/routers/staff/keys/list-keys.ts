import { listApiKeys } from "@mga/core/keys";
import { listLaunchBindings } from "@mga/core/launches";

import { keyToOperatorView } from "../../../operator/operator-views";
import { staffProcedure } from "../../../trpc";
import { listKeysInput, listKeysOutput } from "./keys.types";

export const listKeys = staffProcedure
  .input(listKeysInput)
  .output(listKeysOutput)
  .query(async ({ ctx, input }) => {
    const [keys, bindings] = await Promise.all([
      listApiKeys(ctx.db, input.organization_id),
      listLaunchBindings(ctx.db, input.organization_id),
    ]);
    return keys.map((key) => keyToOperatorView(key, bindings.get(key.id)));
  });
