"use client";

import { useState } from "react";

type CopyOutcome = "copied" | "failed";

/**
 * Copies a value to the clipboard and says so; the value itself stays on screen to select by
 * hand. The outcome is remembered with the value it was about: when the value changes (a new
 * key created after copying the previous one), nothing has been copied yet and the button
 * says nothing, so staff never hand a partner the previous secret. `name` tells screen readers
 * which value a short "Copy" copies; `compact` is the small button beside an id.
 */
export function CopyButton({
  value,
  label = "Copy",
  name,
  compact = false,
}: {
  value: string;
  label?: string;
  name?: string;
  compact?: boolean;
}) {
  const [outcome, setOutcome] = useState<{ value: string; result: CopyOutcome } | undefined>(undefined);
  const result = outcome?.value === value ? outcome.result : undefined;
  return (
    <>
      <button
        type="button"
        className={compact ? "button button-secondary button-small" : "button button-secondary"}
        aria-label={name}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setOutcome({ value, result: "copied" });
          } catch {
            setOutcome({ value, result: "failed" });
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {result === "copied"
          ? "Copied to the clipboard."
          : result === "failed"
            ? "Copying failed: select it and copy it by hand."
            : ""}
      </span>
    </>
  );
}
