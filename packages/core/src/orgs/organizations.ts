import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { publishKeyChange } from "../keys/key-changes";

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

const COLUMNS = `id, name, created_at AS "createdAt"`;

function checkedName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > 200) throw new AppError("invalid_request", "name: must be 1-200 characters");
  return name;
}

export async function createOrganization(db: Database, input: { name: string }): Promise<Organization> {
  const name = checkedName(input.name);
  const { rows } = await db.sql.query<Organization>(
    `INSERT INTO organizations (id, name, created_at, updated_at) VALUES ($1, $2, now(), now()) RETURNING ${COLUMNS}`,
    [newId("org"), name],
  );
  return rows[0] as Organization;
}

export async function getOrganization(db: Database, id: string): Promise<Organization> {
  const { rows } = await db.sql.query<Organization>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
  const org = rows[0];
  if (!org) throw new AppError("not_found", `organization ${id} not found`);
  return org;
}

export async function listOrganizations(db: Database): Promise<Organization[]> {
  const { rows } = await db.sql.query<Organization>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at`);
  return rows;
}

/** Renames an organization; returns it with the name it had before (for the audit trail). */
export async function renameOrganization(
  db: Database,
  id: string,
  newName: string,
): Promise<Organization & { previousName: string }> {
  const name = checkedName(newName);
  // One statement: an organization deleted meanwhile is a 404, not a failed update. Cached keys
  // carry the name (a tenant without configuration is named after it): announced in the same transaction.
  const rows = await withTransaction(db, async (tx) => {
    const updated = await tx.sql.query<{ id: string; name: string; created_at: Date; previous_name: string }>(
      `UPDATE organizations o SET name = $2, updated_at = now() FROM (SELECT id, name FROM organizations WHERE id = $1 FOR UPDATE) before
       WHERE o.id = before.id RETURNING o.id, o.name, o.created_at, before.name AS previous_name`,
      [id, name],
    );
    if (updated.rows[0]) await publishKeyChange(tx, { kind: "organization", id });
    return updated.rows;
  });
  const org = rows[0];
  if (!org) throw new AppError("not_found", `organization ${id} not found`);
  return { id: org.id, name: org.name, createdAt: org.created_at, previousName: org.previous_name };
}
