import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { renameSync } from "node:fs";
import path from "node:path";
import pg from "pg";

import { createFileOnce, errorCode, readFileIfExists, syncDirectory } from "../shared/files";
import { buildUrl, quoteIdent, SUPERUSER } from "./postgres-url";

/**
 * The superuser password of the embedded PostgreSQL: random, generated once per data
 * directory into the file `<dataDir>.password` (mode 0600) next to (not inside) the cluster
 * directory: initdb wants an empty directory, and PostgreSQL's own tools (running as
 * `postgres`) need not read a root-owned file among theirs. Every process that starts or joins
 * the cluster reads it from there.
 */
/** The superuser password of clusters created before it was generated per data directory. */
export const LEGACY_PASSWORD = "postgres";

export function passwordFileOf(dataDir: string): string {
  return `${dataDir}.password`;
}

export function newPassword(): string {
  return randomBytes(32).toString("base64url");
}

export function readPassword(file: string): string | undefined {
  const text = readFileIfExists(file);
  if (text === undefined) return undefined;
  const password = text.trim();
  if (!password)
    throw new Error(`${file} is empty: it should hold the superuser password of the embedded PostgreSQL next to it`);
  return password;
}

export function createPasswordFile(file: string): string {
  return createFileOnce(file, `${newPassword()}\n`).trim();
}

/**
 * A cluster created before passwords were generated has the superuser password "postgres".
 * Its new password goes to `<file>.pending` first and is renamed into place after ALTER ROLE:
 * after a crash in between, the next start finds the cluster already using the pending one.
 */
export async function replaceLegacyPassword(port: number, passwordFile: string): Promise<string> {
  const pending = `${passwordFile}.pending`;
  const next = readPassword(pending) ?? createPasswordFile(pending);
  const client = await connectWithAny(port, [next, LEGACY_PASSWORD]);
  if (!client) {
    throw new Error(
      `the embedded PostgreSQL cluster next to ${passwordFile} refused its password: that file is missing (restore it), or set DATABASE_URL`,
    );
  }
  try {
    // Sent as a SCRAM verifier: the password itself never reaches the server (nor its log).
    await client.query(`ALTER ROLE ${quoteIdent(SUPERUSER)} PASSWORD ${client.escapeLiteral(scramVerifier(next))}`);
  } finally {
    await client.end();
  }
  renameSync(pending, passwordFile);
  syncDirectory(path.dirname(passwordFile));
  return next;
}

/** A client connected with the first password the cluster accepts, if any. */
async function connectWithAny(port: number, passwords: string[]): Promise<pg.Client | undefined> {
  for (const password of passwords) {
    const client = new pg.Client({ connectionString: buildUrl(port, "postgres", password) });
    try {
      await client.connect();
      return client;
    } catch (error) {
      if (errorCode(error) !== "28P01") throw error;
    }
  }
  return undefined;
}

/** What PostgreSQL stores for a password (RFC 7677; the format of PQencryptPasswordConn). */
function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const storedKey = createHash("sha256").update(createHmac("sha256", salted).update("Client Key").digest()).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
