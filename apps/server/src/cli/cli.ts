import { parseArgs } from "node:util";

import { connect } from "@mga/core/db";
import { isAppError } from "@mga/core/errors";

import { loadEnv } from "../env";
import { commandByName, COMMANDS, type CommandName } from "./commands";
import { MissingFieldError, pickFields } from "./field-output";

/**
 * Operator CLI: `pnpm cli <command> [flags] [--json | --field <path> ...]`, against the same
 * database and env as the server (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR).
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
    flags = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: "boolean" }, field: { type: "string", multiple: true } },
      strict: true,
    }).values as typeof flags;
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n${command.usage}\n`);
    return 2;
  }
  const fields = (flags.field as string[] | undefined) ?? [];
  if (fields.length && flags.json === true) {
    process.stderr.write(`${name}: --field and --json are two output modes: choose one\nusage: ${command.usage}\n`);
    return 2;
  }
  const missing = command.required.filter((flag) => flags[flag] === undefined);
  if (missing.length) {
    process.stderr.write(`${name}: missing --${missing.join(", --")}\nusage: ${command.usage}\n`);
    return 2;
  }

  const env = loadEnv();
  const connection = await connect({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    secretKey: env.SECRET_KEY,
    maxConnections: 2,
  });
  const json = flags.json === true;
  try {
    const result = await command.run({ db: connection.db, url: connection.url }, flags);
    if (fields.length) return printFields(name, result, fields, command.note);
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

function printFields(name: string, result: unknown, fields: string[], note: string | undefined): number {
  try {
    process.stdout.write(`${pickFields(result, fields)}\n`);
    if (note) process.stderr.write(`${note}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof MissingFieldError)) throw error;
    // The command has run: what it made (a key shown only once) goes to the terminal, not into a variable.
    process.stderr.write(`${name}: ${error.message}; the whole result:\n${JSON.stringify(result)}\n`);
    return 1;
  }
}

function usage(): string {
  const lines = Object.values(COMMANDS).map((command) => `  ${command.usage}\n      ${command.summary}`);
  return `usage: pnpm cli <command> [flags] [--json | --field <path> ...]\n  --json          one JSON object on one line\n  --field <path>  only that field of the result (dotted path, e.g. aliases.0.slug); several are tab-separated\n\ncommands:\n${lines.join("\n")}\n`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
