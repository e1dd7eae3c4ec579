"use client";

import { startTransition, useActionState } from "react";

import { importCsvAction, type ImportFormState } from "./actions";

/**
 * An admin's import from a CSV file (header: external_user_id, email, optionally name and
 * team_external_id). Refused lines are listed with their line number, so the file is fixed once.
 */
export function ImportCsvForm({ integrationId }: { integrationId: string }) {
  const [state, dispatch, pending] = useActionState<ImportFormState, FormData>(importCsvAction, { status: "idle" });
  return (
    <form
      className="form"
      aria-label="Import users from a CSV file"
      aria-busy={pending}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => dispatch(data));
      }}
    >
      <input type="hidden" name="integrationId" value={integrationId} />
      <div className="field">
        <label htmlFor="import-file">CSV file</label>
        <input
          id="import-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          required
          aria-describedby="import-file-hint"
        />
        <small id="import-file-hint" className="hint">
          A header line, then one user per line: external_user_id, email, and optionally name and team_external_id. At
          most 1,000 users.
        </small>
      </div>
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Starting…" : "Start import"}
      </button>
      {state.status === "error" ? (
        <div className="form-error-box" role="alert">
          <p className="form-error">{state.message}</p>
          {state.rowErrors?.length ? (
            <ul data-row-errors>
              {state.rowErrors.map((row) => (
                <li key={`${row.line}:${row.message}`}>
                  Line {row.line}: {row.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
