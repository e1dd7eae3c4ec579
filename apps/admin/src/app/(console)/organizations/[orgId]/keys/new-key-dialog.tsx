"use client";

import { CopyButton } from "@/components/copy-button";
import { useFormOutcome } from "@/components/form-state-context";
import { useEffect, useId, useRef, useState } from "react";

/**
 * A new key's plaintext, once, in a modal dialog that names the key: the page behind waits
 * until staff say they have stored it ("Done, I have stored it"), so the secret is neither
 * missed below the fold nor replaced unnoticed by the next key's. Escape does not dismiss it
 * (that would lose the key with no explicit step); afterwards the plaintext is gone from the
 * page (the API keeps only its hash).
 */
export function NewKeyDialog() {
  const { state } = useFormOutcome();
  const [stored, setStored] = useState<string | undefined>();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const secret = state.status === "ok" ? state.secret : undefined;
  const open = secret !== undefined && stored !== secret;

  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);

  if (!open) return null;
  return (
    <dialog ref={ref} className="secret-dialog" aria-labelledby={titleId} onCancel={(event) => event.preventDefault()}>
      <h2 id={titleId}>New key “{state.secretName}”</h2>
      <div className="secret" role="region" aria-label="New API key">
        <p>
          <strong>Copy the key now and store it where its server reads it.</strong> It is shown only this once;
          afterwards only its last four characters are.
        </p>
        <code className="secret-value" data-secret>
          {secret}
        </code>
        <CopyButton value={secret} label="Copy key" />
      </div>
      <p className="dialog-actions">
        <button type="button" className="button" onClick={() => setStored(secret)}>
          Done, I have stored it
        </button>
      </p>
    </dialog>
  );
}
