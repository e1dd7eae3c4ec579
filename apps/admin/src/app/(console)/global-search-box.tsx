"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";

/** Typing "/" (outside a field) or Ctrl+K / ⌘K jumps to the search box, as in most consoles. */
function isShortcut(event: KeyboardEvent): boolean {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") return true;
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target as HTMLElement | null;
  return !(target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)));
}

/**
 * The header's search box. On the results page it keeps the term searched for, so it can be
 * refined rather than typed again; elsewhere it starts empty.
 */
export function GlobalSearchBox() {
  const pathname = usePathname();
  const params = useSearchParams();
  const term = pathname === "/search" ? (params.get("q") ?? "") : "";
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <input
      ref={input}
      // A new search remounts the box with its term (defaultValue applies only on mount).
      key={term}
      id="global-search"
      name="q"
      type="search"
      required
      maxLength={254}
      defaultValue={term}
      placeholder="Search (press /)"
      title="A name, email, id, key or request id"
      aria-keyshortcuts="/ Control+K"
    />
  );
}
