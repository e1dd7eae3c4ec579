import Link from "next/link";

export interface Crumb {
  label: string;
  /** Absent for the page itself (the last crumb). */
  href?: string;
}

/** Where a page sits: Organizations › the organization › … › this page. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {trail.map((crumb, index) => (
          <li key={`${index}-${crumb.label}`}>
            {crumb.href && index < trail.length - 1 ? (
              <Link href={crumb.href}>{crumb.label}</Link>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The first crumbs of every page below an organization. */
export function organizationTrail(org: { id: string; name: string }): Crumb[] {
  return [
    { label: "Organizations", href: "/organizations" },
    { label: org.name, href: `/organizations/${org.id}` },
  ];
}
