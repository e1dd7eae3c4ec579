import { readFileSync } from "node:fs";
import { beforeAll } from "vitest";

import { createStaff } from "@mga/core/staff";

import { ok, staffClient, type StaffSession } from "./staff-client";
import type { UntypedJson } from "./untyped-json";
import { useAppWithMockedUpstream } from "./upstream-mock";

/**
 * Shared setup of the staff procedure suites (test/staff/staff-*.test.ts): the app over its
 * own database, an admin and a viewer signed in, and the helpers those suites read and act
 * with (the console's /trpc, the partner REST API, the database, the audit log).
 */
export const ADMIN = { email: "ana@mga.test", password: "admin password 1" };
export const VIEWER = { email: "vic@mga.test", password: "viewer password 1" };
export const TENANT = JSON.parse(
  readFileSync(new URL("../../../../examples/tenant.json", import.meta.url), "utf8"),
) as Record<string, unknown> & {
  enabledSources: string[];
  baseSources: string[];
};

export type AuditEntryView = {
  id: string;
  actor: string;
  action: string;
  target: string;
  organization: { id: string; name: string } | null;
  details: UntypedJson;
  created_at: string;
};

export function useStaffProcedures() {
  const setup = useAppWithMockedUpstream();
  const db = () => setup.app.t.db;
  const client = staffClient(() => setup.app.adminUrl);
  const { signIn, query, mutate } = client;
  const sessions = {} as { admin: StaffSession; viewer: StaffSession };

  beforeAll(async () => {
    await createStaff(db(), { ...ADMIN, role: "admin", actor: "test" });
    await createStaff(db(), { ...VIEWER, role: "viewer", actor: "test" });
    sessions.admin = await signIn(ADMIN.email, ADMIN.password);
    sessions.viewer = await signIn(VIEWER.email, VIEWER.password);
  });

  const rows = async (sql: string, params: unknown[] = []) => (await db().sql.query(sql, params)).rows;
  const json = { "Content-Type": "application/json" };
  const rest = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
    setup.app.request(path, {
      method,
      key,
      headers: { ...(body === undefined ? {} : json), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const auditList = async (filter: { action?: string; actor?: string }, limit = 200) =>
    ok(await query(sessions.viewer, "staff.audit.list", { ...filter, limit })).entries as AuditEntryView[];
  const newOrg = async (name: string) =>
    ok(await mutate(sessions.admin, "staff.organizations.create", { name })) as { id: string; name: string };
  const newKey = async (organizationId: string, scopes: string[], extra: Record<string, unknown> = {}) =>
    ok(
      await mutate(sessions.admin, "staff.keys.create", {
        organization_id: organizationId,
        name: `key ${scopes.join(" ")}`,
        scopes,
        ...extra,
      }),
    ) as {
      key: Record<string, UntypedJson> & { id: string; last_four: string };
      plaintext: string;
      warnings: string[];
    };

  return { setup, db, ...client, sessions, rows, rest, auditList, newOrg, newKey };
}
