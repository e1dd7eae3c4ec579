import { revalidatePath } from "next/cache";
import { errorState, type FormState } from "./form-state";
import { staffClient } from "./session";
import type { ApiClient } from "./trpc";

/**
 * The body of every console server action: calls the API as the signed-in staff member and
 * turns a failure into an in-place error. On success every page is revalidated, so the
 * tables the staff member sees show the change. A refusal about one of `fields` (the form's
 * inputs) is shown beside that input.
 */
export async function runAction(work: (api: ApiClient) => Promise<FormState | void>, okMessage?: string, fields: readonly string[] = []): Promise<FormState> {
  const api = await staffClient();
  try {
    const result = await work(api);
    revalidatePath("/", "layout");
    return result ?? { status: "ok", ...(okMessage ? { message: okMessage } : {}) };
  } catch (error) {
    return errorState(error, fields);
  }
}
