import { listOutbox } from "@mga/core/local-site";

import { loadEnv } from "../../env";
import { type Command } from "./command";

/** The built-in site-account system (embedded default). */
export const siteCommands = {
  "site:outbox": {
    usage: "site:outbox [--email <address>]",
    summary:
      "Show the notifications the built-in site-account system would have emailed (password setup, email verification), with their links.",
    options: { email: { type: "string" } },
    required: [],
    async run({ db }, flags) {
      const env = loadEnv();
      const base = (env.APP_URL ?? env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, "");
      const { notifications } = await listOutbox(db, {
        email: typeof flags.email === "string" ? flags.email : undefined,
        limit: 50,
      });
      return {
        notifications: notifications.map((row) => ({
          kind: row.kind,
          recipient: row.recipient,
          created_at: row.createdAt.toISOString(),
          used: row.used,
          link: row.linkPath ? `${base}${row.linkPath}` : null,
        })),
      };
    },
  },
} satisfies Record<string, Command>;
