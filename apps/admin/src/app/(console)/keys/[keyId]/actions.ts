"use server";

import { runAction } from "@/lib/actions";
import { text, type FormState } from "@/lib/form-state";
import { formatTime } from "@/lib/format";
import { rateLimitProblem } from "@/lib/rate-limit";

export async function revokeKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.keys.revoke.mutate({ id: text(form, "keyId") });
  }, "Key revoked: it is refused from its next request on.");
}

export async function setRateLimitAction(_state: FormState, form: FormData): Promise<FormState> {
  const raw = text(form, "rateLimit");
  const rateLimit = raw ? Number(raw) : null;
  const problem = rateLimitProblem(rateLimit);
  if (problem) {
    return { status: "error", fieldErrors: { rateLimit: problem } };
  }
  return runAction(
    async (api) => {
      await api.staff.keys.setRateLimit.mutate({ id: text(form, "keyId"), rate_limit_per_minute: rateLimit });
    },
    "Rate limit saved.",
    { rate_limit_per_minute: "rateLimit", rate_limit: "rateLimit" },
  );
}

export async function bindLaunchAction(_state: FormState, form: FormData): Promise<FormState> {
  const integration = text(form, "integration");
  if (!integration)
    return { status: "error", fieldErrors: { integration: "Choose the public name this key launches for." } };
  return runAction(
    async (api) => {
      await api.staff.keys.bindLaunch.mutate({ id: text(form, "keyId"), integration });
    },
    `Launch binding set to ${integration}.`,
    { integration: "integration" },
  );
}

export async function unbindLaunchAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.keys.unbindLaunch.mutate({ id: text(form, "keyId") });
  }, "Launch binding disabled.");
}

export async function updateKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  const scopes = form.getAll("scopes").filter((value): value is string => typeof value === "string");
  const fieldErrors: Record<string, string> = {};
  if (!name) fieldErrors.name = "Name the key after what uses it.";
  if (scopes.length === 0) fieldErrors.scopes = "Choose at least one scope.";
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };
  return runAction(
    async (api) => {
      const { warnings } = await api.staff.keys.update.mutate({
        id: text(form, "keyId"),
        name,
        scopes: scopes as NonNullable<Parameters<typeof api.staff.keys.update.mutate>[0]["scopes"]>,
      });
      // The key-separation advice, as on creation: a warning, not a refusal.
      return {
        status: "ok",
        message: ["Name and scopes saved: they apply from the key's next request.", ...warnings].join(" "),
      };
    },
    undefined,
    { name: "name", scopes: "scopes" },
  );
}

export async function rollKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  const overlap = Number(text(form, "overlap"));
  if (!Number.isInteger(overlap))
    return { status: "error", fieldErrors: { overlap: "Choose when the old key stops working." } };
  return runAction(
    async (api) => {
      const rolled = await api.staff.keys.roll.mutate({ id: text(form, "keyId"), old_key_expires_in_seconds: overlap });
      return {
        status: "ok",
        message: `Key rolled: the new key ${rolled.key.id} (…${rolled.key.last_four}) works now; this key stops working ${formatTime(rolled.previous.expires_at)}.`,
        secret: rolled.plaintext,
      };
    },
    undefined,
    { old_key_expires_in_seconds: "overlap" },
  );
}
