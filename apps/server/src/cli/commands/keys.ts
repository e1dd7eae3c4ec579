import { keyToOperatorView } from "@mga/api";
import { AppError } from "@mga/core/errors";
import { createApiKey, listApiKeys, revokeApiKey, SCOPES } from "@mga/core/keys";
import { ALIAS_GRANT_RULE, bindLaunchKey, listLaunchBindings, unbindLaunchKey } from "@mga/core/launches";
import { type Command, str } from "./command";

/** API keys and launch bindings. */

function parseRateLimit(value: string | boolean | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new AppError("invalid_request", "--rate-limit: must be a whole number of requests per minute");
  return parsed;
}

export const keysCommands = {
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
      const [keys, bindings] = await Promise.all([listApiKeys(db, str(flags, "org")), listLaunchBindings(db, str(flags, "org"))]);
      return { keys: keys.map((key) => keyToOperatorView(key, bindings.get(key.id))) };
    },
  },
  "key:bind-launch": {
    usage: "key:bind-launch --id <key id> --integration <public name>",
    summary: `Let a launch key (scope embed:launch) issue launches for one public name (canonical slug or alias); replaces an earlier binding. ${ALIAS_GRANT_RULE}`,
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
} satisfies Record<string, Command>;
