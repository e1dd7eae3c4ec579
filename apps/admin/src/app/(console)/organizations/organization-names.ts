import type { ApiClient } from "@/lib/trpc";

/** How two organization names are compared for "already exists": case and spacing aside. */
export function sameOrganizationName(a: string, b: string): boolean {
  const normal = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();
  return normal(a) === normal(b);
}

export const duplicateNameWarning = (name: string) => `An organization named ${name.trim()} already exists.`;

/** The refusal when the tick was not given (the warning and the tick are then on screen). */
export const duplicateNameRefusal = (name: string, tickLabel: string) =>
  `${duplicateNameWarning(name)} Tick "${tickLabel}" to go ahead.`;

/** The ticks that confirm a name already in use, creating and renaming. */
export const CREATE_TICK = "Create another with this name";
export const RENAME_TICK = "Rename it anyway";

/** Another organization already called `name` (the actions check again: the list the page showed may be out of date). */
export async function nameTakenElsewhere(api: ApiClient, name: string, ownId?: string): Promise<boolean> {
  return (await api.staff.organizations.list.query()).some(
    (org) => org.id !== ownId && sameOrganizationName(org.name, name),
  );
}
