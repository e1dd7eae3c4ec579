"use client";

import { Field } from "@/components/fields";
import type { AccountCheckPurpose } from "@/lib/words";
import { useRef, useState, type ChangeEvent } from "react";

import { existingSiteAccountWarning } from "./actions";

/** Checked once typing pauses, so each keystroke does not ask the API. */
const PAUSE_MS = 300;

/**
 * An email input of a confirmation that says, before the staff member confirms, when the
 * address already has a site account: a reprovisioned user is linked to it (`link`), while an
 * email change of the user's own account to it is refused (`change`).
 */
export function EmailFieldWithAccountCheck({
  integrationId,
  label,
  required,
  purpose,
}: {
  integrationId: string;
  label: string;
  required?: boolean;
  purpose: AccountCheckPurpose;
}) {
  const [warning, setWarning] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Only the answer for the address typed last is shown (an earlier, slower one is dropped).
  const latest = useRef("");

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const email = event.currentTarget.value.trim();
    const checkable = email !== "" && event.currentTarget.validity.valid;
    latest.current = email;
    clearTimeout(timer.current);
    setWarning(undefined);
    if (!checkable) return;
    timer.current = setTimeout(async () => {
      const found = await existingSiteAccountWarning(integrationId, email, purpose);
      if (latest.current === email) setWarning(found);
    }, PAUSE_MS);
  };

  return (
    <Field
      label={label}
      name="email"
      type="email"
      required={required ?? false}
      onChange={onChange}
      warning={warning ? <span data-site-account-warning="">{warning}</span> : undefined}
    />
  );
}
