/**
 * What every console form gets back from its server action: a message for the section's one
 * message area, field errors to show beside their inputs, and on success whatever the page
 * displays once (a new key's plaintext). Failed API calls become one through describeApiError.
 */
export interface FormState {
  status: "idle" | "ok" | "error";
  message?: string;
  fieldErrors?: Record<string, string>;
  /** Shown once after success (the plaintext of a new key); never stored anywhere. */
  secret?: string;
  /** What the secret belongs to, as the one-time dialog names it (a key's name). */
  secretName?: string;
  /** The API's own text when no plain sentence says it (lib/describe-error.ts), for a details line. */
  detail?: string;
}

export const idleState: FormState = { status: "idle" };

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
