"use server";

import { runAction } from "@/lib/actions";
import { rateLimitProblem } from "@/lib/rate-limit";
import { type FormState, text } from "@/lib/form-state";

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
  if (!integration) return { status: "error", fieldErrors: { integration: "Choose the public name this key launches for." } };
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
