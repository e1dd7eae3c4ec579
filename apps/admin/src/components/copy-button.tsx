"use client";

import { useState } from "react";

/**
 * Copies a value to the clipboard and says so; the value itself stays on screen to select by
 * hand. `name` tells screen readers which value a short "Copy" copies; `compact` is the small
 * button beside an id.
 */
export function CopyButton({ value, label = "Copy", name, compact = false }: { value: string; label?: string; name?: string; compact?: boolean }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className={compact ? "button button-secondary button-small" : "button button-secondary"}
        aria-label={name}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied("copied");
          } catch {
            setCopied("failed");
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {copied === "copied" ? "Copied to the clipboard." : copied === "failed" ? "Copying failed: select it and copy it by hand." : ""}
      </span>
    </>
  );
}
