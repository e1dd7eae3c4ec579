import { apiProcedure } from "../../trpc";
import { getMeInput, getMeOutput } from "./keys.types";

export const getMe = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/me",
      tags: ["keys"],
      summary: "The authenticated API key",
      description:
        "Returns the key record with its resolved tenant configuration and client identity. Any active key may call it.",
      protect: true,
    },
  })
  .input(getMeInput)
  .output(getMeOutput)
  .query(({ ctx }) => {
    const { key, requestId } = ctx;
    return {
      request_id: requestId,
      key: {
        id: key.id,
        name: key.name,
        status: "active" as const,
        scopes: key.scopes,
        last_four: key.lastFour,
        ...(key.expiresAt ? { expires_at: key.expiresAt.toISOString() } : {}),
        tenant: key.tenant,
        client: {
          name: key.tenant.clientName,
          ...(key.tenant.clientOrganization !== undefined ? { organization: key.tenant.clientOrganization } : {}),
        },
      },
    };
  });
