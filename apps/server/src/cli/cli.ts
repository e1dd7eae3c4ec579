import { parseArgs } from "node:util";
import { connect, isAppError } from "@mga/core";
import { loadEnv } from "../env";
import { COMMANDS, type CommandName, commandByName } from "./commands";

/**
 * Operator CLI: `pnpm cli <command> [flags] [--json]`, against the same database and env as
 * the server (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR).
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || !(name in COMMANDS)) {
    process.stderr.write(usage());
    return name && name !== "help" && name !== "--help" ? 2 : 0;
  }
  const command = commandByName[name as CommandName];
  let flags: Record<string, string | boolean | string[] | undefined>;
  try {
    flags = parseArgs({ args: rest, options: { ...command.options, json: { type: "boolean" } }, strict: true }).values as typeof flags;
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n${command.usage}\n`);
    return 2;
  }
  const missing = command.required.filter((flag) => flags[flag] === undefined);
  if (missing.length) {
    process.stderr.write(`${name}: missing --${missing.join(", --")}\nusage: ${command.usage}\n`);
    return 2;
  }

  const env = loadEnv();
  const connection = await connect({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, secretKey: env.SECRET_KEY, maxConnections: 2 });
  const json = flags.json === true;
  try {
    const result = await command.run({ db: connection.db, url: connection.url }, flags);
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    if (!json && command.note) process.stderr.write(`${command.note}\n`);
    return 0;
  } catch (error) {
    const code = isAppError(error) ? error.code : "internal_error";
    const message = error instanceof Error ? error.message : String(error);
    if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    process.stderr.write(`${name} failed: ${message}\n`);
    return 1;
  } finally {
    await connection.close();
  }
}

function usage(): string {
  const lines = Object.values(COMMANDS).map((command) => `  ${command.usage}\n      ${command.summary}`);
  return `usage: pnpm cli <command> [flags] [--json]\n\ncommands:\n${lines.join("\n")}\n`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
