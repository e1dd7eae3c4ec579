"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** How often a page with a running operation reads it again. */
const EVERY_MS = 2_000;

/**
 * Re-reads the user's page while one of their operations is queued or processing, so a
 * deletion or reprovision started here shows its progress and end without a manual reload.
 * Stops once none is running (the server renders it without `running`).
 */
export function RefreshWhileRunning({ running }: { running: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.refresh(), EVERY_MS);
    return () => clearInterval(timer);
  }, [running, router]);
  return running ? (
    <p className="hint" role="status">
      An operation is running: this page updates by itself.
    </p>
  ) : null;
}
