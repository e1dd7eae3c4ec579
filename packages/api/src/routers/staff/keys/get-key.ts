import { getApiKey } from "@mga/core/keys";

import { staffProcedure } from "../../../trpc";
import { keyViewWithBinding } from "./key-view";
import { keyIdInput, keyViewSchema } from "./keys.types";

export const getKey = staffProcedure
  .input(keyIdInput)
  .output(keyViewSchema)
  .query(async ({ ctx, input }) => keyViewWithBinding(ctx.db, await getApiKey(ctx.db, input.id)));
