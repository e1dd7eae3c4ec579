import { buildSourceCatalog } from "@mga/core/sources";

import { apiProcedure } from "../../trpc";
import { listSourcesInput, listSourcesOutput } from "./sources.types";

export const listSources = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/sources",
      tags: ["sources"],
      summary: "Sources the key may select",
      description:
        "Agency sources, tenant buckets and shared sources of the key's tenant, with the defaults used when a message omits search_options.",
      protect: true,
    },
    scope: "sources:read",
  })
  .input(listSourcesInput)
  .output(listSourcesOutput)
  .query(({ ctx }) => ({ request_id: ctx.requestId, ...buildSourceCatalog(ctx.key.tenant) }));
