"use server";

import { runAction } from "@/lib/actions";
import { text, type FormState } from "@/lib/form-state";
import { expiryFromDate } from "@/lib/key-expiry";
import { rateLimitProblem } from "@/lib/rate-limit";

/** Creates a key; its plaintext travels back in this action's result only, to be shown once. */
export async function createKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  const scopes = form.getAll("scopes").filter((value): value is string => typeof value === "string");
  const rateLimitText = text(form, "rateLimit");
  const fieldErrors: Record<string, string> = {};
  if (!name) fieldErrors.name = "Name the key after what uses it, for example acme server.";
  if (scopes.length === 0) fieldErrors.scopes = "Choose at least one scope.";
  const rateLimit = rateLimitText ? Number(rateLimitText) : null;
  const rateLimitError = rateLimitProblem(rateLimit);
  if (rateLimitError) fieldErrors.rateLimit = rateLimitError;
  const expiresOn = text(form, "expiresOn");
  const expiresAt = expiresOn ? expiryFromDate(expiresOn) : null;
  if (expiresAt === undefined) fieldErrors.expiresOn = "A date (YYYY-MM-DD), or empty for a key that never expires.";
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };
  return runAction(
    async (api) => {
      const created = await api.staff.keys.create.mutate({
        organization_id: text(form, "orgId"),
        name,
        scopes: scopes as Array<Parameters<typeof api.staff.keys.create.mutate>[0]["scopes"][number]>,
        rate_limit_per_minute: rateLimit,
        expires_at: expiresAt ?? null,
      });
      // The separation warnings were shown while the scopes were chosen (create-key-form.tsx).
      return {
        status: "ok",
        message: `Key "${created.key.name}" created.`,
        secret: created.plaintext,
        secretName: created.key.name,
      };
    },
    undefined,
    { name: "name", scopes: "scopes", rate_limit_per_minute: "rateLimit", expires_at: "expiresOn" },
  );
}
