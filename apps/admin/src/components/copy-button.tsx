"use client";

import { useState } from "react";

/** Copies a value to the clipboard and says so; the value itself stays on screen to select by hand. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
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
