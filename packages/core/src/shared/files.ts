import { closeSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * Creates `file` with `contents` (mode 0600) unless it exists, and returns what the file holds
 * afterwards. The contents are written whole and synced under another name, then linked into
 * place (a link fails when the file exists): a crash never leaves half a file, and of two
 * processes creating it at once both go on with the first one's contents.
 */
export function createFileOnce(file: string, contents: string): string {
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  syncDirectory(path.dirname(file));
  return readFileSync(file, "utf8");
}

/** Makes a rename or link in `dir` durable. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The contents of `file`, or undefined when it does not exist. */
export function readFileIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

export function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | undefined)?.code;
}

/** An error's message on one line, for messages that must fit one. */
export function oneLine(error: unknown): string {
  return String(error instanceof Error ? error.message : (error ?? ""))
    .replace(/\s+/g, " ")
    .trim();
}
