import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

export async function createOrganization(db: Database, input: { name: string }): Promise<Organization> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new AppError("invalid_request", "name: must be 1-200 characters");
  const org = await db.prisma.organization.create({ data: { id: newId("org"), name } });
  return { id: org.id, name: org.name, createdAt: org.createdAt };
}

export async function getOrganization(db: Database, id: string): Promise<Organization> {
  const org = await db.prisma.organization.findUnique({ where: { id } });
  if (!org) throw new AppError("not_found", `organization ${id} not found`);
  return { id: org.id, name: org.name, createdAt: org.createdAt };
}

export async function listOrganizations(db: Database): Promise<Organization[]> {
  const orgs = await db.prisma.organization.findMany({ orderBy: { createdAt: "asc" } });
  return orgs.map((org) => ({ id: org.id, name: org.name, createdAt: org.createdAt }));
}
