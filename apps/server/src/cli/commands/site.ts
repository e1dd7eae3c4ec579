import { loadEnv } from "../../env";
import { type Command } from "./command";

/** The built-in site-account system (embedded default). */
export const siteCommands = {
  "site:outbox": {
    usage: "site:outbox [--email <address>]",
    summary: "Show the notifications the built-in site-account system would have emailed (password setup, email verification), with their links.",
    options: { email: { type: "string" } },
    required: [],
    async run({ db }, flags) {
      const env = loadEnv();
      const base = (env.APP_URL ?? env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, "");
      const email = typeof flags.email === "string" ? flags.email.trim().toLowerCase() : undefined;
      const rows = await db.prisma.notificationOutbox.findMany({ where: email ? { recipient: email } : {}, orderBy: { createdAt: "desc" }, take: 50 });
      return {
        notifications: rows.map((row) => {
          const payload = row.payload as { token?: string; used?: boolean };
          return {
            kind: row.kind,
            recipient: row.recipient,
            created_at: row.createdAt.toISOString(),
            used: payload.used === true,
            link: row.kind === "password_setup" ? `${base}/site/password-setup?token=${payload.token}` : null,
          };
        }),
      };
    },
  },
} satisfies Record<string, Command>;
