import { signOutAction } from "@/app/sign-in/actions";
import { Tabs } from "@/components/tabs";
import { currentStaff } from "@/lib/current-staff";
import { describeValue } from "@/lib/words";
import Link from "next/link";
import { Suspense, type ReactNode } from "react";

import { GlobalSearchBox } from "./global-search-box";

// Every console page reads live data as the signed-in staff member: never prerendered.
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = await currentStaff();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link href="/organizations" className="brand">
          Staff console
        </Link>
        <Tabs
          tabs={[
            // Integrations and keys belong to an organization: their pages are under this tab.
            { href: "/organizations", label: "Organizations", also: ["/integrations/", "/keys/"] },
            { href: "/usage", label: "Usage", also: ["/requests/"] },
            // Short, so that every tab fits the header's one row on a laptop (1280 px).
            { href: "/outbox", label: "Outbox", name: "Notification outbox" },
            { href: "/audit", label: "Audit log" },
            { href: "/staff", label: "Staff" },
            { href: "/status", label: "API status" },
          ]}
        />
        <form method="get" action="/search" role="search" aria-label="Search the console" className="global-search">
          <label htmlFor="global-search" className="visually-hidden">
            Search
          </label>
          <Suspense fallback={<input id="global-search" name="q" type="search" required maxLength={254} />}>
            <GlobalSearchBox />
          </Suspense>
          <button type="submit" className="button button-secondary">
            Search
          </button>
        </form>
        <form action={signOutAction} className="who">
          <span>
            <span className="who-email" title={staff.email}>
              {staff.email}
            </span>{" "}
            <span className="badge badge-muted">{describeValue("role", staff.role)}</span>
          </span>
          <button type="submit" className="button button-secondary">
            Sign out
          </button>
        </form>
      </header>
      <main id="main" className="content">
        {children}
      </main>
    </>
  );
}
