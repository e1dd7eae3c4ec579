"use server";

import { runAction } from "@/lib/actions";
import { list, text, type FormState } from "@/lib/form-state";

export async function createIntegrationAction(_state: FormState, form: FormData): Promise<FormState> {
  const slug = text(form, "slug");
  if (!slug) return { status: "error", fieldErrors: { slug: "Enter the integration's slug." } };
  return runAction(
    async (api) => {
      const integration = await api.staff.integrations.create.mutate({
        organization_id: text(form, "orgId"),
        slug,
        aliases: list(form, "aliases"),
      });
      return { status: "ok", message: `Integration ${integration.slug} created.` };
    },
    undefined,
    { slug: "slug", aliases: "aliases", alias: "aliases" },
  );
}
