import { readFileSync } from "node:fs";

import { AppError } from "@mga/core/errors";
import { configureTenant, getTenantConfig } from "@mga/core/tenants";

import { str, type Command } from "./command";

/** Tenant configurations (spec 2.3/2.4). */
export const tenantsCommands = {
  "tenant:configure": {
    usage: "tenant:configure --org <id> --file <path.json>",
    summary: "Set the tenant configuration (spec 2.3/2.4) of an organization; prints the stored configuration.",
    options: { org: { type: "string" }, file: { type: "string" } },
    required: ["org", "file"],
    async run({ db }, flags) {
      let config: unknown;
      try {
        config = JSON.parse(readFileSync(str(flags, "file"), "utf8"));
      } catch (error) {
        throw new AppError(
          "invalid_request",
          `--file: cannot read JSON from ${str(flags, "file")}: ${(error as Error).message}`,
        );
      }
      return configureTenant(db, { organizationId: str(flags, "org"), config });
    },
  },
  "tenant:show": {
    usage: "tenant:show --org <id>",
    summary: "Print the tenant configuration in force for an organization.",
    options: { org: { type: "string" } },
    required: ["org"],
    run: ({ db }, flags) => getTenantConfig(db, str(flags, "org")),
  },
} satisfies Record<string, Command>;
