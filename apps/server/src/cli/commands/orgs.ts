import { createOrganization, listOrganizations } from "@mga/core/orgs";

import { str, type Command } from "./command";

/** Organizations. */
export const orgsCommands = {
  "org:create": {
    usage: "org:create --name <name>",
    summary: "Create an organization.",
    options: { name: { type: "string" } },
    required: ["name"],
    async run({ db }, flags) {
      const org = await createOrganization(db, { name: str(flags, "name") });
      return { id: org.id, name: org.name };
    },
  },
  "org:list": {
    usage: "org:list",
    summary: "List organizations.",
    options: {},
    required: [],
    async run({ db }) {
      const orgs = await listOrganizations(db);
      return {
        organizations: orgs.map((org) => ({ id: org.id, name: org.name, created_at: org.createdAt.toISOString() })),
      };
    },
  },
} satisfies Record<string, Command>;
