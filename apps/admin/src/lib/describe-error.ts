import { TRPCClientError } from "@trpc/client";

import type { FormState } from "./form-state";
import { sentence } from "./words";

/**
 * The one place where an API failure becomes what staff read: a sentence per field beside its
 * input, or one sentence for the form. The API writes its messages for partners' developers
 * ("slug: must be …", "key key_… is revoked"); the rules below say the same in staff's words.
 * A message no rule knows gets a general sentence for its error code, and the API's own text
 * goes to the details line (to quote to an engineer), never in place of the sentence.
 */

/** API field paths (`slug`, `rate_limit_per_minute`, `email, name`) → the form field showing them. */
export type FieldMap = Record<string, string>;

/** A plain sentence for one API problem; `path` when the sentence belongs to another field than stated. */
type Rule = [RegExp, (match: RegExpExecArray) => string | { path: string; text: string }];

const RULES: Rule[] = [
  // Input shapes (zod, the API's and the tenant configuration's).
  [/^required$/, () => "Required."],
  [/^Too small: expected string to have >=1 characters?$/, () => "Required."],
  [/^Too small: expected string to have >=(\d+) characters$/, (m) => `Use at least ${m[1]} characters.`],
  [/^Too big: expected string to have <=(\d+) characters$/, (m) => `Use at most ${m[1]} characters.`],
  [/^Too small: expected array to have >=1 items?$/, () => "Choose at least one."],
  [/^Too big: expected array to have <=(\d+) items$/, (m) => `Give at most ${m[1]}.`],
  [/^Too small: expected number to be >=?(\d+)$/, (m) => `Enter a number of at least ${m[1]}.`],
  [/^Too big: expected number to be <=?(\d+)$/, (m) => `Enter a number of at most ${m[1]}.`],
  [/^Invalid option/, () => "Choose one of the values offered."],
  [/^Invalid input: expected (int|number)/, () => "Enter a whole number."],
  [/^must be 1-(\d+) characters$/, (m) => `Use 1 to ${m[1]} characters.`],
  [/^at least (\d+) characters$/, (m) => `At least ${m[1]} characters.`],
  [/^at most (\d+) characters$/, (m) => `At most ${m[1]} characters.`],
  [/^too easy to guess .*$/, (m) => sentence(m[0])],
  [/^must not repeat a value$/, () => "List each value once."],
  [/^keys must be unique$/, () => "Give each tenant source its own key."],
  [/^"(.+)" is not in enabledSources$/, (m) => `${m[1]} is not one of the enabled agency sources.`],
  [/^"(.+)" is not in tenantSourceKeys$/, (m) => `${m[1]} is not one of the tenant source keys.`],
  [/^"(.+)" is not an assigned tenant source$/, (m) => `${m[1]} is not one of the tenant sources.`],
  [/^"(.+)" is not in assignedSharedSourceTypes$/, (m) => `${m[1]} is not one of the assigned shared source types.`],
  [
    /^tenant bucket "(.+)" is not an assigned tenant source$/,
    (m) => `Tenant bucket ${m[1]} is not one of the tenant sources.`,
  ],
  [
    /^shared source "(.+)" is not in assignedSharedSourceTypes$/,
    (m) => `Shared source ${m[1]} is not one of the assigned shared source types.`,
  ],
  // Integrations, aliases and keys.
  [
    /^must be 3-64 lowercase letters or digits, starting with a letter, with single - or _ separators$/,
    () => "Use 3 to 64 lowercase letters or digits, starting with a letter, with single - or _ between them.",
  ],
  [
    /^the name (.+) is already used by an integration or alias of this organization$/,
    (m) => `This organization already has an integration or alias named ${m[1]}.`,
  ],
  [/^must differ from the canonical slug$/, () => "An alias must differ from the integration's own slug."],
  [
    /^alias (\S+) is not an alias of \S+$/,
    (m) => `${m[1]} is no longer an alias of this integration: reload the page.`,
  ],
  [/^key \S+ is revoked$/, () => "This key is revoked."],
  // Key lifecycle: expiry, roll, edit.
  [/^key \S+ is revoked; create a new key instead$/, () => "This key is revoked: create a new key instead."],
  [
    /^key \S+ was already rolled to (\S+); revoke that key first to roll again$/,
    (m) => `This key was already rolled to ${m[1]}, which still works: revoke that key first to roll again.`,
  ],
  [/^must be in the future$/, () => "Choose a date after today."],
  [/^must be at most (\d+) days ahead$/, (m) => `Choose a date at most ${m[1]} days ahead.`],
  [/^must be a date-time$/, () => "Enter a date."],
  [
    /^must be a whole number from 0 \(now\) to \d+ \(7 days\)$/,
    () => "Choose when the old key stops: from now to 7 days.",
  ],
  [/^give name, scopes or both$/, () => "Change the name or the scopes."],
  [
    /^key \S+ lacks the embed:launch scope/,
    () => ({
      path: "integration",
      text: "Only a key with the embed:launch scope can be bound: create a separate launch key.",
    }),
  ],
  [
    /^no integration or alias named (\S+) in the key's organization$/,
    (m) => ({ path: "integration", text: `No integration or alias of this organization is named ${m[1]}.` }),
  ],
  [/^must be an integer from 1 to (\d+) requests per minute$/, (m) => `Enter a whole number from 1 to ${m[1]}.`],
  [
    /^(organization|integration|key|alias|import|team|operation) \S+ not found/,
    (m) => `This ${m[1]} no longer exists: reload the page.`,
  ],
  [/^(.+ still has .+ first)$/, (m) => sentence(m[1] ?? "")],
  [/^must be an email address/, () => "Enter an email address, like name@example.com."],
  // Partner users.
  [/^user \S+ not found$/, () => "This user no longer exists: reload the page."],
  [/^user \S+ is already deleted$/, () => "This user is already deleted."],
  [
    /^user \S+ is not deleted; only a deleted user can be reprovisioned$/,
    () => "Only a deleted user can be reprovisioned.",
  ],
  [/^user \S+ is deleted/, () => "This user is deleted: reprovision them first."],
  [/^user \S+ is not provisioned yet/, () => "This user's setup has not finished: try again once it has."],
  [
    /^nothing to change/,
    () => ({ path: "email", text: "The new email and name are the current ones: there is nothing to change." }),
  ],
  [
    /^an override needs a reason of at least (\d+) characters/,
    (m) => `Give a reason of at least ${m[1]} characters: the audit log records why.`,
  ],
  [/^an override needs a reason/, () => "Give a reason: the audit log records it."],
  [
    /^email searches are not accepted; search by external user id$/,
    () => "Email searches are not accepted: search by external user id.",
  ],
  [
    /^another change to the same account is taking too long/,
    () => "Another change to this account is still running: try again shortly.",
  ],
  // Staff and invitations (their wording is already for staff; only made sentences).
  [/^(\S+@\S+) already has a staff account/, (m) => `${m[1]} already has a staff account.`],
  [/^this action needs the admin role$/, () => "Only admins can do this; your role is read-only."],
  [
    /^(you cannot .*|this invitation .*|this staff account is disabled.*|no pending invitation with this id|no staff account with this id|too many failed attempts.*)$/i,
    (m) => sentence(m[1] ?? ""),
  ],
  // Core's newer messages are written as sentences for people (a capital first, a full stop last):
  // shown as they are ("Enter a label: spaces alone are not one.").
  [/^[A-Z][^]*\.$/, (m) => m[0]],
];

/** What staff read when no rule knows the message, per error code. */
const BY_CODE: Record<string, string> = {
  invalid_request: "The API refused this: check the values and try again.",
  unauthorized: "Your session has ended. Sign in again.",
  forbidden: "You are not allowed to do this.",
  not_found: "This no longer exists: reload the page to see the current state.",
  rate_limited: "Too many requests: wait a moment and try again.",
  identity_conflict: "This does not fit the user's current state: reload the page to see it.",
  upstream_error: "A connected system did not answer: try again shortly.",
};
const FALLBACK = "Something went wrong on the API: try again, and if it persists quote the details to an engineer.";
const UNREACHABLE = "The API could not be reached. Try again in a moment.";

/** One problem in staff's words, or undefined when no rule knows it. */
function plain(problem: string): { path?: string; text: string } | undefined {
  for (const [pattern, say] of RULES) {
    const match = pattern.exec(problem);
    if (match) {
      const said = say(match);
      return typeof said === "string" ? { text: said } : said;
    }
  }
  return undefined;
}

/** A field path's form field: the exact path, else its first segment (`aliases.0` → `aliases`). */
function fieldOf(path: string, fields: FieldMap): string | undefined {
  return fields[path] ?? fields[path.split(/[.,]/)[0]?.trim() ?? ""];
}

/**
 * The API joins several problems as "path: problem; path: problem" (describeIssues); a problem
 * may itself contain "; " ("too easy to guess (…); add a word"), so only a part that starts
 * with a path begins a new one.
 */
function splitIssues(message: string): Array<{ path?: string; problem: string }> {
  return message.split(/; (?=[A-Za-z_][\w.]*(?:, [A-Za-z_][\w.]*)*: )/).map((part) => {
    const match = /^([A-Za-z_][\w.]*(?:, [A-Za-z_][\w.]*)*): (.+)$/s.exec(part);
    return match ? { path: match[1], problem: match[2] as string } : { problem: part };
  });
}

/**
 * Problems (with their API paths) as a form state: each beside its field when the form has
 * one, the rest as form sentences; what no rule knows goes to the details line.
 */
export function describeProblems(
  issues: Array<{ path?: string; problem: string }>,
  fields: FieldMap,
  code?: string,
): FormState {
  const fieldErrors: Record<string, string> = {};
  const sentences: string[] = [];
  const unknown: string[] = [];
  for (const { path, problem } of issues) {
    const said = plain(problem);
    const field = fieldOf(said?.path ?? path ?? "", fields);
    const text = said?.text ?? (field ? "This value is not accepted." : undefined);
    if (!said) unknown.push(path ? `${path}: ${problem}` : problem);
    if (field && text) fieldErrors[field] = fieldErrors[field] ? `${fieldErrors[field]} ${text}` : text;
    else if (text && !sentences.includes(text)) sentences.push(text);
  }
  const general = sentences.length
    ? sentences.join(" ")
    : Object.keys(fieldErrors).length
      ? undefined
      : (BY_CODE[code ?? ""] ?? FALLBACK);
  return {
    status: "error",
    ...(general ? { message: general } : {}),
    ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}),
    ...(unknown.length ? { detail: unknown.join("; ") } : {}),
  };
}

/** The API's error code from the envelope our error formatter adds to every tRPC error. */
function codeOf(error: TRPCClientError<never>): string | undefined {
  const shape = error.shape as { envelope?: { error?: { code?: unknown } } } | undefined;
  const code = shape?.envelope?.error?.code;
  return typeof code === "string" ? code : undefined;
}

/** A failed API call as a form state: see the comment at the top of this file. */
export function describeApiError(error: unknown, fields: FieldMap = {}): FormState {
  if (!(error instanceof TRPCClientError)) return { status: "error", message: UNREACHABLE };
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  if (status === 401) return { status: "error", message: BY_CODE.unauthorized };
  // A refusal that names the input it is about (AppError.field) is written for the person who
  // typed it: shown beside that input, in a rule's words when one knows it.
  const field = (error.data as { field?: string } | undefined)?.field;
  const input = field ? fieldOf(field, fields) : undefined;
  // "expires_at: must be …" names its field twice: the rules read the problem after the name.
  const problem =
    field && error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message;
  if (input) return { status: "error", fieldErrors: { [input]: plain(problem)?.text ?? sentence(problem) } };
  return describeProblems(splitIssues(error.message), fields, codeOf(error));
}

/** The sentence alone, for places that show no fields (a page's refused filter, an invitation link). */
export function describeApiErrorMessage(error: unknown): string {
  const state = describeApiError(error);
  return state.message ?? Object.values(state.fieldErrors ?? {}).join(" ");
}
