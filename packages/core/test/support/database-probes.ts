import { openDatabase, type Database, type Sql } from "../../src/db/database";
import { withTransaction } from "../../src/db/transaction";
import type { ServerSecrets } from "../../src/secrets/server-secrets";

/** A statement's SQL: given as text, or as a prepared statement's config (db/prepared.ts). */
export function statementText(query: string | { text: string }): string {
  return typeof query === "string" ? query : query.text;
}

type Recorder = (text: string, values: unknown[]) => void;

/** `sql` with every statement it runs passed to `record` first. */
function recordingSql(sql: Sql, record: Recorder): Sql {
  return {
    query: ((text: string | { text: string; values?: unknown[] }, params?: unknown[]) => {
      record(statementText(text), params ?? (typeof text === "string" ? [] : (text.values ?? [])));
      return sql.query(text as string, params);
    }) as Sql["query"],
  };
}

/** Records the text of every statement run through `db` from now on (the handle itself is kept, so per-handle state stays attached). */
export function recordStatements(db: Database): string[] {
  const statements: string[] = [];
  db.sql = recordingSql(db.sql, (text) => statements.push(text));
  return statements;
}

/**
 * A handle of its own on the database at `url` that records every statement it runs with its
 * values (its transactions' too), to be planned again (planOf). Close it when done.
 */
export function recordingDatabase(url: string, secrets: ServerSecrets): { db: Database; queries: RecordedQuery[] } {
  const queries: RecordedQuery[] = [];
  const db = openDatabase(url, {
    secrets,
    wrapSql: (sql) => recordingSql(sql, (text, values) => queries.push({ text, values })),
  });
  return { db, queries };
}

export interface RecordedQuery {
  text: string;
  values: unknown[];
}

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

/**
 * The plan PostgreSQL picks for a recorded statement. With `analyze` it runs it (so only for a
 * read); without, sequential scans are made a last resort, so a table the plan still scans
 * whole (seqScanned) has no index that serves the statement.
 */
export async function planOf(
  db: Database,
  query: RecordedQuery,
  options: { analyze?: boolean } = {},
): Promise<PlanNode> {
  return withTransaction(db, async (tx) => {
    if (!options.analyze) await tx.sql.query("SET LOCAL enable_seqscan = off");
    const { rows } = await tx.sql.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON${options.analyze ? ", ANALYZE, BUFFERS" : ""}) ${query.text}`,
      query.values,
    );
    return rows[0]!["QUERY PLAN"][0].Plan;
  });
}

/** Every plan node, depth first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The nodes of a plan that read a table (its scans). */
export function scansOf(plan: PlanNode, table: string): PlanNode[] {
  return nodesOf(plan).filter((node) => node["Relation Name"] === table);
}

/** The tables a plan reads whole. */
export function seqScanned(plan: PlanNode): string[] {
  return nodesOf(plan)
    .filter((node) => node["Node Type"] === "Seq Scan")
    .map((node) => node["Relation Name"] ?? "");
}

/**
 * Rows an analyzed plan read from a table: those its scans returned and those their filters
 * threw away, over every loop. PostgreSQL prints a node's rows as the average of its loops (with
 * two decimals since 18, whole before), so only a node that ran once counts exactly everywhere.
 */
export function rowsRead(plan: PlanNode, table: string): number {
  const rows = scansOf(plan, table).reduce(
    (sum, node) =>
      sum +
      ((node["Actual Rows"] ?? 0) +
        (node["Rows Removed by Filter"] ?? 0) +
        (node["Rows Removed by Index Recheck"] ?? 0)) *
        (node["Actual Loops"] ?? 0),
    0,
  );
  return Math.round(rows);
}

/** Pages an analyzed plan read, from the cache or not (its whole tree's). */
export function pagesRead(plan: PlanNode): number {
  return (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0);
}

/** An integration's user counts by a full scan: what the maintained counters must equal. */
export async function fullUserCount(db: Database, integrationId: string) {
  const { rows } = await db.sql.query(
    `SELECT count(*) FILTER (WHERE status <> 'deleted')::int AS total, count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'disabled')::int AS disabled, count(*) FILTER (WHERE status = 'deleted')::int AS deleted,
            count(*) FILTER (WHERE status <> 'deleted' AND provisioning_status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status <> 'deleted' AND provisioning_status = 'failed')::int AS failed
     FROM partner_users WHERE integration_id = $1`,
    [integrationId],
  );
  return rows[0];
}
