import { integrationToOperatorView } from "@mga/api";
import { AppError } from "@mga/core/errors";
import { ALIAS_GRANT_RULE } from "@mga/core/launches";
import { createIntegration, listIntegrations, setAliasGrant, updateIntegration } from "@mga/core/partners/integrations";
import { DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE, MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE } from "@mga/core/rate-limits";

import { list, str, type Command } from "./command";

/** Partner integrations and their aliases. */
function parseIntegrationStatus(value: string | boolean | string[] | undefined): "active" | "disabled" | undefined {
  if (value === undefined) return undefined;
  if (value !== "active" && value !== "disabled")
    throw new AppError("invalid_request", "--status: must be active or disabled");
  return value;
}

/** A number, or `default` for the service default (null); core checks the bounds. */
function parseChatAnswersPerUser(value: string | boolean | string[] | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "default") return null;
  const parsed = Number(value);
  if (typeof value !== "string" || value.trim() === "" || !Number.isInteger(parsed)) {
    throw new AppError(
      "invalid_request",
      "--chat-answers-per-user: must be a whole number of answers per minute, or default",
    );
  }
  return parsed;
}

const CHAT_ANSWERS_PER_USER = `hosted-chat answers each user may get per minute, counted before the launch key's limit (default ${DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE}, at most ${MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE})`;

export const integrationsCommands = {
  "integration:create": {
    usage:
      "integration:create --org <id> --slug <slug> [--alias <slug> ...] [--status active|disabled] [--chat-answers-per-user <n>|default]",
    summary: `Configure a partner integration (canonical slug, optional public aliases; --chat-answers-per-user: ${CHAT_ANSWERS_PER_USER}). ${ALIAS_GRANT_RULE}`,
    options: {
      org: { type: "string" },
      slug: { type: "string" },
      alias: { type: "string", multiple: true },
      status: { type: "string" },
      "chat-answers-per-user": { type: "string" },
    },
    required: ["org", "slug"],
    async run({ db }, flags) {
      return integrationToOperatorView(
        await createIntegration(db, {
          organizationId: str(flags, "org"),
          slug: str(flags, "slug"),
          aliases: list(flags, "alias"),
          status: parseIntegrationStatus(flags.status),
          chatAnswersPerUserPerMinute: parseChatAnswersPerUser(flags["chat-answers-per-user"]),
        }),
      );
    },
  },
  "integration:update": {
    usage:
      "integration:update --org <id> --slug <slug> [--status active|disabled] [--add-alias <slug> ...] [--remove-alias <slug> ...] [--chat-answers-per-user <n>|default]",
    summary: `Enable or disable an integration, add or remove aliases, set ${CHAT_ANSWERS_PER_USER}.`,
    options: {
      org: { type: "string" },
      slug: { type: "string" },
      status: { type: "string" },
      "add-alias": { type: "string", multiple: true },
      "remove-alias": { type: "string", multiple: true },
      "chat-answers-per-user": { type: "string" },
    },
    required: ["org", "slug"],
    async run({ db }, flags) {
      return integrationToOperatorView(
        await updateIntegration(db, {
          organizationId: str(flags, "org"),
          slug: str(flags, "slug"),
          status: parseIntegrationStatus(flags.status),
          chatAnswersPerUserPerMinute: parseChatAnswersPerUser(flags["chat-answers-per-user"]),
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
      return {
        integrations: (await listIntegrations(db, str(flags, "org"))).map((integration) =>
          integrationToOperatorView(integration),
        ),
      };
    },
  },
  "alias:grant": {
    usage: "alias:grant --org <id> --alias <slug> --key <key id>",
    summary: `Let one key use a public alias (it then resolves to the canonical integration for that key). ${ALIAS_GRANT_RULE}`,
    options: { org: { type: "string" }, alias: { type: "string" }, key: { type: "string" } },
    required: ["org", "alias", "key"],
    async run({ db }, flags) {
      return integrationToOperatorView(
        await setAliasGrant(db, {
          organizationId: str(flags, "org"),
          alias: str(flags, "alias"),
          apiKeyId: str(flags, "key"),
          granted: true,
        }),
      );
    },
  },
  "alias:revoke": {
    usage: "alias:revoke --org <id> --alias <slug> --key <key id>",
    summary: "Withdraw a key's grant of a public alias.",
    options: { org: { type: "string" }, alias: { type: "string" }, key: { type: "string" } },
    required: ["org", "alias", "key"],
    async run({ db }, flags) {
      return integrationToOperatorView(
        await setAliasGrant(db, {
          organizationId: str(flags, "org"),
          alias: str(flags, "alias"),
          apiKeyId: str(flags, "key"),
          granted: false,
        }),
      );
    },
  },
} satisfies Record<string, Command>;
