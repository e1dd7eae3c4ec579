"use client";

import { usePathname } from "next/navigation";

import { Breadcrumbs, type Crumb } from "./breadcrumbs";

export interface TrailSection {
  label: string;
  /** The section's page when it is not `${base}/${segment}` (an integration's users are its base page). */
  href?: string;
  /** How a page inside the section is named before its id ("Import " + the job id). */
  itemPrefix?: string;
}

/**
 * Breadcrumbs of a layout with tabs and pages below it: the layout's trail, then the tab and
 * the page the address names (…/imports/imp_1 → "Imports", "Import imp_1").
 */
export function PathBreadcrumbs({
  trail,
  base,
  sections,
}: {
  trail: Crumb[];
  base: string;
  sections: Record<string, TrailSection>;
}) {
  const rest = usePathname().slice(base.length).split("/").filter(Boolean);
  const section = rest[0] ? sections[rest[0]] : undefined;
  const tail: Crumb[] = [];
  if (rest[0] && section) {
    tail.push({ label: section.label, href: section.href ?? `${base}/${rest[0]}` });
    if (rest[1]) tail.push({ label: `${section.itemPrefix ?? ""}${decoded(rest[1])}` });
  }
  return <Breadcrumbs trail={[...trail, ...tail]} />;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
