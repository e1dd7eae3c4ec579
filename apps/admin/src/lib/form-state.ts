import { TRPCClientError } from "@trpc/client";

/**
 * What every console form gets back from its server action: a message to show in place,
 * field errors to show beside their inputs, and on success whatever the page displays
 * once (a new key's plaintext).
 */
export interface FormState {
  status: "idle" | "ok" | "error";
  message?: string;
  fieldErrors?: Record<string, string>;
  /** Shown once after success (the plaintext of a new key); never stored anywhere. */
  secret?: string;
  warnings?: string[];
}

export const idleState: FormState = { status: "idle" };

/**
 * The API's message for a failed call (its error envelope's message), or a generic one. A
 * refusal about one of the form's own inputs (`fields`; the API names it) is shown beside
 * that input, as a sentence.
 */
export function errorState(error: unknown, fields: readonly string[] = []): FormState {
  if (error instanceof TRPCClientError) {
    const { httpStatus: status, field } = (error.data as { httpStatus?: number; field?: string } | undefined) ?? {};
    if (status === 401) return { status: "error", message: "Your session has ended. Sign in again." };
    if (field && fields.includes(field)) return { status: "error", fieldErrors: { [field]: sentence(error.message) } };
    if (status === 403 && /admin role/.test(error.message)) return { status: "error", message: "Only admins can do this; your role is read-only." };
    return { status: "error", message: zodMessage(error.message) ?? error.message };
  }
  return { status: "error", message: "The API could not be reached. Try again in a moment." };
}

/** tRPC reports input validation as a JSON list of zod issues; turned into one readable line. */
function zodMessage(message: string): string | undefined {
  if (!message.startsWith("[")) return undefined;
  try {
    const issues = JSON.parse(message) as Array<{ path?: Array<string | number>; message?: string }>;
    return issues.map((issue) => `${(issue.path ?? []).join(".") || "input"}: ${issue.message ?? "invalid"}`).join("; ");
  } catch {
    return undefined;
  }
}

/** An API message ("the name acme is …") as a sentence of the page: capital first, full stop last. */
export function sentence(message: string): string {
  const trimmed = message.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

export function optionalText(form: FormData, name: string): string | undefined {
  return text(form, name) || undefined;
}

/** "a, b,c" or one per line → ["a", "b", "c"]. */
export function list(form: FormData, name: string): string[] {
  return text(form, name)
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}
