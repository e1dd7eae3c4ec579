import { keyToOperatorView } from "@mga/api";
import { withAudit } from "@mga/core/audit";
import { AppError } from "@mga/core/errors";
import {
  createApiKey,
  EXPIRING_SOON_DAYS,
  getApiKey,
  keyRollAuditDetails,
  keyUpdateAuditDetails,
  listApiKeys,
  listKeysExpiringWithin,
  MAX_KEY_LIFETIME_DAYS,
  revokeApiKey,
  rollApiKey,
  SCOPES,
  updateApiKey,
} from "@mga/core/keys";
import { ALIAS_GRANT_RULE, bindLaunchKey, listLaunchBindings, unbindLaunchKey } from "@mga/core/launches";

import { str, type Command } from "./command";

/** API keys and launch bindings. */

function parseRateLimit(value: string | boolean | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed))
    throw new AppError("invalid_request", "--rate-limit: must be a whole number of requests per minute");
  return parsed;
}

/** An ISO 8601 date-time (with its offset or Z); its bounds are core's. */
function parseDateTime(value: string | boolean | string[] | undefined, flag: string): Date | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const parsed = new Date(text);
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ||
    Number.isNaN(parsed.getTime())
  ) {
    throw new AppError(
      "invalid_request",
      `--${flag}: must be an ISO 8601 date-time with its offset, e.g. 2027-01-31T00:00:00Z`,
    );
  }
  return parsed;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "0", "90s", "30m", "24h", "7d" (a bare number is seconds) into seconds; the 0..7 days bound is core's. */
function parseDuration(value: string | boolean | string[] | undefined, flag: string): number {
  const match = /^(\d{1,9})([smhd]?)$/.exec(String(value).trim());
  if (!match) throw new AppError("invalid_request", `--${flag}: must be a duration such as 0 (now), 30m, 24h or 7d`);
  return Number(match[1]) * (UNIT_SECONDS[match[2] || "s"] as number);
}

/** Who the CLI's audit entries name: an operator at the server's shell. */
const CLI_ACTOR = "cli";

export const keysCommands = {
  "key:create": {
    usage:
      "key:create --org <id> --name <name> --scopes <comma list> [--rate-limit <requests per minute>] [--expires-at <ISO date-time>]",
    summary: `Create an API key; the plaintext is printed once. Scopes: ${SCOPES.join(", ")}. An expiry is optional, at most ${MAX_KEY_LIFETIME_DAYS} days ahead.`,
    options: {
      org: { type: "string" },
      name: { type: "string" },
      scopes: { type: "string" },
      "rate-limit": { type: "string" },
      "expires-at": { type: "string" },
    },
    required: ["org", "name", "scopes"],
    note: "Store the key now: it is shown only this once and only its hash is kept.",
    async run({ db }, flags) {
      const { key, plaintext } = await createApiKey(db, {
        organizationId: str(flags, "org"),
        name: str(flags, "name"),
        scopes: str(flags, "scopes"),
        rateLimitPerMinute: parseRateLimit(flags["rate-limit"]),
        expiresAt: parseDateTime(flags["expires-at"], "expires-at"),
      });
      return {
        id: key.id,
        key: plaintext,
        last_four: key.lastFour,
        scopes: key.scopes,
        rate_limit_per_minute: key.rateLimitPerMinute,
        expires_at: key.expiresAt?.toISOString() ?? null,
      };
    },
  },
  "key:update": {
    usage: "key:update --id <key id> [--name <name>] [--scopes <comma list>]",
    summary: "Rename a key and/or replace its scopes (audited); every instance applies it from the key's next request.",
    options: { id: { type: "string" }, name: { type: "string" }, scopes: { type: "string" } },
    required: ["id"],
    async run({ db }, flags) {
      const changed = {
        name: flags.name === undefined ? undefined : str(flags, "name"),
        scopes: flags.scopes === undefined ? undefined : str(flags, "scopes"),
      };
      if (changed.name === undefined && changed.scopes === undefined)
        throw new AppError("invalid_request", "give --name, --scopes or both");
      const before = await getApiKey(db, str(flags, "id"));
      const key = await withAudit(
        db,
        CLI_ACTOR,
        (tx) => updateApiKey(tx, before.id, changed),
        (updated) => ({
          action: "key.update",
          target: updated.id,
          details: keyUpdateAuditDetails(before, updated, changed),
        }),
      );
      return { id: key.id, name: key.name, scopes: key.scopes };
    },
  },
  "key:roll": {
    usage: "key:roll --id <key id> --old-key-expires-in <0|30m|24h|7d> [--expires-at <ISO date-time>]",
    summary:
      "Roll a key: a successor (plaintext printed once) with the same name, scopes, rate limit, alias grants and launch binding; the old key keeps working for the given time (0 to 7 days), then is refused (401). Audited.",
    options: { id: { type: "string" }, "old-key-expires-in": { type: "string" }, "expires-at": { type: "string" } },
    required: ["id", "old-key-expires-in"],
    note: "Store the new key now: it is shown only this once. Replace the old key before it expires.",
    async run({ db }, flags) {
      const roll = {
        oldKeyExpiresInSeconds: parseDuration(flags["old-key-expires-in"], "old-key-expires-in"),
        expiresAt: parseDateTime(flags["expires-at"], "expires-at"),
      };
      const rolled = await withAudit(
        db,
        CLI_ACTOR,
        (tx) => rollApiKey(tx, str(flags, "id"), roll),
        (result) => ({ action: "key.roll", target: result.previous.id, details: keyRollAuditDetails(result) }),
      );
      return {
        id: rolled.key.id,
        key: rolled.plaintext,
        last_four: rolled.key.lastFour,
        expires_at: rolled.key.expiresAt?.toISOString() ?? null,
        previous: { id: rolled.previous.id, expires_at: rolled.previous.expiresAt?.toISOString() ?? null },
      };
    },
  },
  "key:expiring": {
    usage: `key:expiring [--org <id>] [--within-days <days, default ${EXPIRING_SOON_DAYS}>]`,
    summary: "List active keys that expire within the given number of days, soonest first (one organization, or all).",
    options: { org: { type: "string" }, "within-days": { type: "string" } },
    required: [],
    async run({ db }, flags) {
      const withinDays = flags["within-days"] === undefined ? EXPIRING_SOON_DAYS : Number(flags["within-days"]);
      const keys = await listKeysExpiringWithin(db, {
        withinDays,
        organizationId: flags.org === undefined ? undefined : str(flags, "org"),
      });
      return { keys: keys.map((key) => keyToOperatorView(key)) };
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
      const [keys, bindings] = await Promise.all([
        listApiKeys(db, str(flags, "org")),
        listLaunchBindings(db, str(flags, "org")),
      ]);
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
      return {
        id: binding.apiKeyId,
        integration: binding.publicName,
        canonical_integration: binding.integration,
        enabled: binding.enabled,
      };
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
