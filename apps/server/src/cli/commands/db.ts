import { migrateDatabase } from "@mga/core/db";

import { type Command } from "./command";

/** The database. */
export const dbCommands = {
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
