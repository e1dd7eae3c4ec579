import { readFileSync } from "node:fs";
import {
  AppError,
  type ApiKeySummary,
  configureTenant,
  createApiKey,
  createOrganization,
  type Database,
  getTenantConfig,
  listApiKeys,
  listOrganizations,
  applyProfileOverride,
  bindLaunchKey,
  unbindLaunchKey,
  createIntegration,
  getIntegration,
  JobQueue,
  localDirectory,
  type IntegrationRecord,
  listIntegrations,
  migrateDatabase,
  setAliasGrant,
  updateIntegration,
  revokeApiKey,
  SCOPES,
} from "@mga/core";

type Flags = Record<string, string | boolean | string[] | undefined>;
type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

export interface Command {
  usage: string;
  summary: string;
  options: OptionSpec;
  required: string[];
  /** Printed to stderr after a human-readable (non --json) result. */
  note?: string;
  run(context: { db: Database; url: string }, flags: Flags): Promise<unknown>;
}

const str = (flags: Flags, name: string) => String(flags[name]);

/** A key as the CLI prints it: never the secret (except once, at creation), never its hash. */
function keyView(key: ApiKeySummary) {
  return {
    id: key.id,
    organization_id: key.organizationId,
    name: key.name,
    status: key.status,
    scopes: key.scopes,
    last_four: key.lastFour,
    rate_limit_per_minute: key.rateLimitPerMinute,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}

function integrationView(integration: IntegrationRecord) {
  return {
    id: integration.id,
    organization_id: integration.organizationId,
    slug: integration.slug,
    status: integration.status,
    aliases: integration.aliases.map((alias) => ({ slug: alias.slug, granted_key_ids: alias.grantedKeyIds })),
  };
}

function parseIntegrationStatus(value: string | boolean | string[] | undefined): "active" | "disabled" | undefined {
  if (value === undefined) return undefined;
  if (value !== "active" && value !== "disabled") throw new AppError("invalid_request", "--status: must be active or disabled");
  return value;
}

const list = (flags: Flags, name: string) => (flags[name] as string[] | undefined) ?? [];

function parseRateLimit(value: string | boolean | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new AppError("invalid_request", "--rate-limit: must be a whole number of requests per minute");
  return parsed;
}

export const COMMANDS = {
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
      return { organizations: orgs.map((org) => ({ id: org.id, name: org.name, created_at: org.createdAt.toISOString() })) };
    },
  },
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
        throw new AppError("invalid_request", `--file: cannot read JSON from ${str(flags, "file")}: ${(error as Error).message}`);
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
  "key:create": {
    usage: "key:create --org <id> --name <name> --scopes <comma list> [--rate-limit <requests per minute>]",
    summary: `Create an API key; the plaintext is printed once. Scopes: ${SCOPES.join(", ")}.`,
    options: { org: { type: "string" }, name: { type: "string" }, scopes: { type: "string" }, "rate-limit": { type: "string" } },
    required: ["org", "name", "scopes"],
    note: "Store the key now: it is shown only this once and only its hash is kept.",
    async run({ db }, flags) {
      const { key, plaintext } = await createApiKey(db, {
        organizationId: str(flags, "org"),
        name: str(flags, "name"),
        scopes: str(flags, "scopes"),
        rateLimitPerMinute: parseRateLimit(flags["rate-limit"]),
      });
      return { id: key.id, key: plaintext, last_four: key.lastFour, scopes: key.scopes, rate_limit_per_minute: key.rateLimitPerMinute };
    },
  },
  "key:revoke": {
    usage: "key:revoke --id <key id>",
    summary: "Revoke an API key; it is refused (401) from the next request on.",
    options: { id: { type: "string" } },
    required: ["id"],
    async run({ db }, flags) {
      const key = await revokeApiKey(db, str(flags, "id"));
      return { id: key.id, status: key.status };
    },
  },
  "key:list": {
    usage: "key:list --org <id>",
    summary: "List an organization's keys (never the keys themselves).",
    options: { org: { type: "string" } },
    required: ["org"],
    async run({ db }, flags) {
      return { keys: (await listApiKeys(db, str(flags, "org"))).map(keyView) };
    },
  },
  "key:bind-launch": {
    usage: "key:bind-launch --id <key id> --integration <public name>",
    summary: "Let a launch key (scope embed:launch) issue launches for one public name (canonical slug or alias); replaces an earlier binding.",
    options: { id: { type: "string" }, integration: { type: "string" } },
    required: ["id", "integration"],
    async run({ db }, flags) {
      const binding = await bindLaunchKey(db, { apiKeyId: str(flags, "id"), publicName: str(flags, "integration") });
      return { id: binding.apiKeyId, integration: binding.publicName, canonical_integration: binding.integration, enabled: binding.enabled };
    },
  },
  "key:unbind-launch": {
    usage: "key:unbind-launch --id <key id>",
    summary: "Disable a launch key's binding: it can no longer issue launches.",
    options: { id: { type: "string" } },
    required: ["id"],
    async run({ db }, flags) {
      const result = await unbindLaunchKey(db, str(flags, "id"));
      return { id: result.apiKeyId, enabled: result.enabled };
    },
  },
  "integration:create": {
    usage: "integration:create --org <id> --slug <slug> [--alias <slug> ...] [--status active|disabled]",
    summary: "Configure a partner integration (canonical slug, optional public aliases). Aliases resolve only for keys granted them (alias:grant).",
    options: { org: { type: "string" }, slug: { type: "string" }, alias: { type: "string", multiple: true }, status: { type: "string" } },
    required: ["org", "slug"],
    async run({ db }, flags) {
      return integrationView(
        await createIntegration(db, { organizationId: str(flags, "org"), slug: str(flags, "slug"), aliases: list(flags, "alias"), status: parseIntegrationStatus(flags.status) }),
      );
    },
  },
  "integration:update": {
    usage: "integration:update --org <id> --slug <slug> [--status active|disabled] [--add-alias <slug> ...] [--remove-alias <slug> ...]",
    summary: "Enable or disable an integration, add or remove aliases.",
    options: { org: { type: "string" }, slug: { type: "string" }, status: { type: "string" }, "add-alias": { type: "string", multiple: true }, "remove-alias": { type: "string", multiple: true } },
    required: ["org", "slug"],
    async run({ db }, flags) {
      return integrationView(
        await updateIntegration(db, {
          organizationId: str(flags, "org"),
          slug: str(flags, "slug"),
          status: parseIntegrationStatus(flags.status),
          addAliases: list(flags, "add-alias"),
          removeAliases: list(flags, "remove-alias"),
        }),
      );
    },
  },
  "integration:list": {
    usage: "integration:list --org <id>",
    summary: "List an organization's integrations.",
    options: { org: { type: "string" } },
    required: ["org"],
    async run({ db }, flags) {
      return { integrations: (await listIntegrations(db, str(flags, "org"))).map(integrationView) };
    },
  },
  "alias:grant": {
    usage: "alias:grant --org <id> --alias <slug> --key <key id>",
    summary: "Let one key use a public alias (it then resolves to the canonical integration for that key).",
    options: { org: { type: "string" }, alias: { type: "string" }, key: { type: "string" } },
    required: ["org", "alias", "key"],
    async run({ db }, flags) {
      return integrationView(await setAliasGrant(db, { organizationId: str(flags, "org"), alias: str(flags, "alias"), apiKeyId: str(flags, "key"), granted: true }));
    },
  },
  "alias:revoke": {
    usage: "alias:revoke --org <id> --alias <slug> --key <key id>",
    summary: "Withdraw a key's grant of a public alias.",
    options: { org: { type: "string" }, alias: { type: "string" }, key: { type: "string" } },
    required: ["org", "alias", "key"],
    async run({ db }, flags) {
      return integrationView(await setAliasGrant(db, { organizationId: str(flags, "org"), alias: str(flags, "alias"), apiKeyId: str(flags, "key"), granted: false }));
    },
  },
  "user:override-profile": {
    usage: "user:override-profile --org <id> --integration <slug> --user <external_user_id> [--email <email>] [--name <name>] --reason <text> --actor <staff id>",
    summary: "Audited staff override of a user's profile (name-only or unverified email change to a pre-existing account). The running server's workers apply it.",
    options: { org: { type: "string" }, integration: { type: "string" }, user: { type: "string" }, email: { type: "string" }, name: { type: "string" }, reason: { type: "string" }, actor: { type: "string" } },
    required: ["org", "integration", "user", "reason", "actor"],
    async run({ db, url }, flags) {
      const integration = await getIntegration(db, str(flags, "org"), str(flags, "integration"));
      const queue = await JobQueue.start({ connectionString: url });
      try {
        const op = await applyProfileOverride({ db, queue, ...localDirectory(db) }, integration, str(flags, "user"), {
          email: flags.email as string | undefined,
          name: flags.name as string | undefined,
          actor: str(flags, "actor"),
          reason: str(flags, "reason"),
        });
        return { operation_id: op.id, type: op.type, status: op.status };
      } finally {
        await queue.stop();
      }
    },
  },
  "db:migrate": {
    usage: "db:migrate",
    summary: "Apply pending database migrations (the server also does this at start).",
    options: {},
    required: [],
    async run({ url }) {
      const result = await migrateDatabase(url);
      return { applied: result.applied, already_applied: result.alreadyApplied };
    },
  },
} satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;
export const commandByName = COMMANDS as Record<CommandName, Command>;
