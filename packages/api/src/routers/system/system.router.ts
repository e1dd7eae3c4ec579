import { z } from "zod";

import { databaseReachable } from "@mga/core/db";

import { API_VERSION } from "../../openapi/api-version";
import { publicProcedure, router } from "../../trpc";

/** Not part of /v1: served on /trpc for the admin console (and health checks). */
export const systemRouter = router({
  status: publicProcedure
    .output(z.object({ service: z.string(), api_version: z.string(), database: z.enum(["ok", "unavailable"]) }))
    .query(async ({ ctx }) => {
      const database = (await databaseReachable(ctx.db)) ? "ok" : "unavailable";
      return { service: "mortgage-guideline-api", api_version: API_VERSION, database };
    }),
});
