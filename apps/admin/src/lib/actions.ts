import { revalidatePath } from "next/cache";

import { describeApiError, type FieldMap } from "./describe-error";
import type { FormState } from "./form-state";
import { staffClient } from "./session";
import type { ApiClient } from "./trpc";

/**
 * The body of every console server action: calls the API as the signed-in staff member and
 * turns a failure into plain sentences (`fields` names the form field showing each API field).
 * On success every page is revalidated, so the tables the staff member sees show the change.
 */
export async function runAction(
  work: (api: ApiClient) => Promise<FormState | void>,
  okMessage?: string,
  fields?: FieldMap,
): Promise<FormState> {
  const api = await staffClient();
  try {
    const result = await work(api);
    revalidatePath("/", "layout");
    return result ?? { status: "ok", ...(okMessage ? { message: okMessage } : {}) };
  } catch (error) {
    return describeApiError(error, fields);
  }
}
