import type { Command } from "./commands/command";
import { dbCommands } from "./commands/db";
import { integrationsCommands } from "./commands/integrations";
import { keysCommands } from "./commands/keys";
import { orgsCommands } from "./commands/orgs";
import { siteCommands } from "./commands/site";
import { staffCommands } from "./commands/staff";
import { tenantsCommands } from "./commands/tenants";
import { usersCommands } from "./commands/users";
import { webhooksCommands } from "./commands/webhooks";

/** Every operator command, by name; one file per domain under ./commands. */
export const COMMANDS = {
  ...orgsCommands,
  ...tenantsCommands,
  ...keysCommands,
  ...integrationsCommands,
  ...usersCommands,
  ...webhooksCommands,
  ...siteCommands,
  ...staffCommands,
  ...dbCommands,
};

export type CommandName = keyof typeof COMMANDS;
export const commandByName = COMMANDS as Record<CommandName, Command>;
export type { Command } from "./commands/command";
