import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";

import { createFileOnce, readFileIfExists } from "../shared/files";
import { MIN_SECRET_KEY_LENGTH } from "./server-secrets";

/**
 * The embedded default needs no configuration: its SECRET_KEY is generated once into the data
 * directory (mode 0600) and read back by every process using that directory (the server, the
 * CLI). With DATABASE_URL several instances may share the database, so each must be given the
 * same SECRET_KEY; a key per data directory would silently differ between them.
 */
export const SECRET_KEY_FILE = "secret-key";

export function resolveSecretKey(options: {
  secretKey?: string | undefined;
  databaseUrl?: string | undefined;
  dataDir: string;
}): string {
  if (options.secretKey) return options.secretKey;
  if (options.databaseUrl) {
    throw new Error(
      "SECRET_KEY is required with DATABASE_URL (every instance sharing the database needs the same one): generate it with `openssl rand -base64 32`",
    );
  }
  return readOrCreateSecretKey(options.dataDir);
}

export function readOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  let text = readFileIfExists(file);
  if (text === undefined) {
    mkdirSync(dataDir, { recursive: true });
    text = createFileOnce(file, `${randomBytes(32).toString("base64url")}\n`);
  }
  chmodSync(file, 0o600);
  const key = text.trim();
  if (key.length < MIN_SECRET_KEY_LENGTH)
    throw new Error(`${file} does not hold a usable secret key: delete it to have a new one generated`);
  return key;
}
