import { JobQueue } from "@mga/core/jobs";
import { localDirectory } from "@mga/core/local-site";
import { getIntegration } from "@mga/core/partners/integrations";
import { applyProfileOverride } from "@mga/core/partners/operations";

import { str, type Command } from "./command";

/** Operator actions on partner users. */
export const usersCommands = {
  "user:override-profile": {
    usage:
      "user:override-profile --org <id> --integration <slug> --user <external_user_id> [--email <email>] [--name <name>] --reason <text> --actor <staff id>",
    summary:
      "Audited staff override of a user's profile (name-only or unverified email change to a pre-existing account). The running server's workers apply it.",
    options: {
      org: { type: "string" },
      integration: { type: "string" },
      user: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      reason: { type: "string" },
      actor: { type: "string" },
    },
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
} satisfies Record<string, Command>;
