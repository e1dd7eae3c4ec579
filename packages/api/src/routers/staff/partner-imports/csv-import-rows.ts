import { CsvError, parse } from "csv-parse/sync";
import { z } from "zod";

import { MAX_IMPORT_USERS } from "@mga/core/partners/imports";

import { importUserSchema } from "../../partners/imports/imports.types";

/** One refused line of a CSV file: its line number in the file (the header is line 1) and why. */
export interface CsvRowError {
  line: number;
  message: string;
}

export type ImportUser = z.infer<typeof importUserSchema>;

const COLUMNS = ["external_user_id", "email", "name", "team_external_id"] as const;
const REQUIRED = ["external_user_id", "email"] as const;

/**
 * The users of a CSV file for an import (the partner API's rows, one a line, with a header
 * naming the columns: external_user_id and email, optionally name and team_external_id), or
 * every line that is not one, so staff fix the file once. Each row is checked with the API's
 * own schema; an empty optional cell is an absent value.
 */
export function csvImportRows(text: string): { users: ImportUser[]; errors: CsvRowError[] } {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  let header: string[] = [];
  const readHeader = (names: string[]) => (header = names.map((name) => name.trim().toLowerCase()));
  try {
    records = parse(text, { bom: true, columns: readHeader, skip_empty_lines: true, trim: true, info: true });
  } catch (error) {
    if (error instanceof CsvError)
      return {
        users: [],
        errors: [{ line: Number((error as CsvError & { lines?: unknown }).lines) || 1, message: csvMessage(error) }],
      };
    throw error;
  }
  const unknown = header.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  const missing = REQUIRED.filter((name) => !header.includes(name));
  if (unknown.length || missing.length) {
    const parts = [
      missing.length ? `missing column ${missing.join(", ")}` : "",
      unknown.length ? `unknown column ${unknown.join(", ")}` : "",
    ].filter(Boolean);
    return {
      users: [],
      errors: [{ line: 1, message: `header: ${parts.join("; ")} (columns: ${COLUMNS.join(", ")})` }],
    };
  }
  if (records.length === 0)
    return { users: [], errors: [{ line: 2, message: "no users: add one line per user under the header" }] };
  if (records.length > MAX_IMPORT_USERS)
    return {
      users: [],
      errors: [
        {
          line: MAX_IMPORT_USERS + 2,
          message: `at most ${MAX_IMPORT_USERS} users per import (got ${records.length}); split the file`,
        },
      ],
    };

  const users: ImportUser[] = [];
  const errors: CsvRowError[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { record, info } of records) {
    const line = info.lines;
    const present = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ""));
    // A required cell left empty reads as missing, with the schema's message for it.
    const parsed = importUserSchema.safeParse(present);
    if (!parsed.success) {
      errors.push({
        line,
        message: parsed.error.issues
          .map((issue) => `${issue.path.join(".") || "row"}: ${issueMessage(issue)}`)
          .join("; "),
      });
      continue;
    }
    const earlier = firstLineOf.get(parsed.data.external_user_id);
    if (earlier !== undefined) {
      errors.push({ line, message: `external_user_id: ${parsed.data.external_user_id} repeats line ${earlier}` });
      continue;
    }
    firstLineOf.set(parsed.data.external_user_id, line);
    users.push(parsed.data);
  }
  return { users, errors };
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.input === undefined) return "required";
  return issue.message;
}

function csvMessage(error: CsvError): string {
  // csv-parse's messages name its option and code; the reason is the part staff can act on.
  return `not valid CSV (${error.code.replace(/^CSV_/, "").replaceAll("_", " ").toLowerCase()})`;
}
