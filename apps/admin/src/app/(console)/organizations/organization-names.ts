/** How two organization names are compared for "already exists": case and spacing aside. */
export function sameOrganizationName(a: string, b: string): boolean {
  const normal = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();
  return normal(a) === normal(b);
}

export const duplicateNameWarning = (name: string) => `An organization named ${name.trim()} already exists.`;
