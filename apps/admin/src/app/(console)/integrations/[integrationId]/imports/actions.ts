"use server";

import { describeApiErrorMessage } from "@/lib/describe-error";
import { text } from "@/lib/form-state";
import { staffClient } from "@/lib/session";
import { redirect } from "next/navigation";

/** What the CSV form shows: a sentence, and each refused line of the file with its reason. */
export interface ImportFormState {
  status: "idle" | "error";
  message?: string;
  rowErrors?: Array<{ line: number; message: string }>;
}

/**
 * Starts an import from the chosen CSV file through the API (the partner API's bulk import),
 * then opens the import's page. A file with refused lines starts nothing.
 */
export async function importCsvAction(_state: ImportFormState, form: FormData): Promise<ImportFormState> {
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    return { status: "error", message: "Choose a CSV file with a header line and one user per line." };
  const integrationId = text(form, "integrationId");
  let jobId: string | null;
  try {
    const api = await staffClient();
    const started = await api.staff.partnerImports.start.mutate({
      integration_id: integrationId,
      csv: await file.text(),
    });
    if (started.row_errors.length) {
      const count = started.row_errors.length;
      return {
        status: "error",
        message: `Nothing was imported: ${count === 1 ? "1 line" : `${count} lines`} of the file ${count === 1 ? "is" : "are"} refused. Fix ${count === 1 ? "it" : "them"} and start again.`,
        rowErrors: started.row_errors,
      };
    }
    jobId = started.job_id;
  } catch (error) {
    return { status: "error", message: describeApiErrorMessage(error) };
  }
  redirect(`/integrations/${integrationId}/imports/${jobId}`);
}
