import { createStaff, type StaffRole } from "@mga/core/staff";

import { str, type Command } from "./command";

/** Staff of the admin console. */
export const staffCommands = {
  "staff:create": {
    usage: "staff:create --email <email> --password <password> [--role admin|viewer]",
    summary: "Create a staff account for the admin console (default role: admin). Recorded in the audit log.",
    options: { email: { type: "string" }, password: { type: "string" }, role: { type: "string" } },
    required: ["email", "password"],
    async run({ db }, flags) {
      const role = (typeof flags.role === "string" ? flags.role : "admin") as StaffRole;
      return createStaff(db, { email: str(flags, "email"), password: str(flags, "password"), role, actor: "cli" });
    },
  },
  "console:forwarding-key": {
    usage: "console:forwarding-key",
    summary:
      "Print the console's ADMIN_FORWARDING_KEY: derived from SECRET_KEY, it signs the visitor address the console forwards to the admin listener.",
    options: {},
    required: [],
    note: "Set it as ADMIN_FORWARDING_KEY where the console runs (the run command does this itself); it changes with SECRET_KEY.",
    async run({ db }) {
      return { key: db.secrets.macKey("console-forwarding").toString("base64url") };
    },
  },
} satisfies Record<string, Command>;
