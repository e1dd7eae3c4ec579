"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * Section tabs; the one for the current page (or under `also`) is marked for screen readers and
 * styling. `name`, when given, is the tab's full name (its page's title) for a short `label`.
 */
export function Tabs({
  tabs,
}: {
  tabs: Array<{ href: string; label: string; name?: string; exact?: boolean; also?: string[] }>;
}) {
  const pathname = usePathname();
  return (
    <nav className="tabs" aria-label="Sections">
      {tabs.map((tab) => {
        const current =
          (tab.exact ? pathname === tab.href : pathname === tab.href || pathname.startsWith(`${tab.href}/`)) ||
          (tab.also ?? []).some((prefix) => pathname.startsWith(prefix));
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={current ? "page" : undefined}
            aria-label={tab.name}
            title={tab.name}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
