import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { QUEUES, type JobQueue } from "../../jobs/job-queue";
import { decodeCursor, keysetDirection, keysetPage } from "../../paging/cursor";
import { totalWhenAsked, type TotalOption } from "../../paging/total";
import { recordEvent } from "../../webhooks/record-event";
import type { ResolvedIntegration } from "../integrations/integrations";
import type { DirectoryDeps } from "../users/directory-deps";
import { completeRows, importChunk, type ImportRow } from "./import-chunk";
import type { ImportStatus, RowOutcome } from "./import-values";

/**
 * Bulk imports (spec 2.13, 3.8, 4.10): provisioning and identity matching only, at most
 * 1,000 unique users. States: queued → processing → completed (every row has an outcome;
 * rows may have failed individually) or failed (the job itself could not run, after retries).
 * A row's outcome is created, existing, pending (provisioning not finished) or failed, with
 * the error's code and message. The worker resumes where it stopped after a crash.
 */
export const MAX_IMPORT_USERS = 1000;

export interface ImportRowInput {
  external_user_id: string;
  email: string;
  name?: string | undefined;
  team_external_id?: string | null | undefined;
}

export interface ImportRecord {
  id: string;
  integration: string;
  status: ImportStatus;
  total: number;
  summary: Record<RowOutcome, number> & { processed: number };
  results: Array<{
    externalUserId: string;
    outcome: RowOutcome;
    errorCode: string | null;
    errorMessage: string | null;
  }>;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/**
 * Returns the job as it was created (queued, nothing processed), read inside the creating
 * transaction: a worker may pick it up before the caller answers, and the answer to the
 * request describes what it created (as acceptOperationRequest does for lifecycle requests).
 */
export async function createImport(
  deps: { db: Database; queue: JobQueue },
  integration: ResolvedIntegration,
  rows: ImportRowInput[],
): Promise<ImportRecord> {
  if (rows.length === 0) throw new AppError("invalid_request", "users: at least one user is required");
  if (rows.length > MAX_IMPORT_USERS)
    throw new AppError(
      "invalid_request",
      `users: at most ${MAX_IMPORT_USERS} users per import (got ${rows.length}); split the import`,
    );
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.external_user_id)) duplicates.add(row.external_user_id);
    seen.add(row.external_user_id);
  }
  if (duplicates.size)
    throw new AppError(
      "invalid_request",
      `users: external_user_id must be unique within an import; repeated: ${[...duplicates].slice(0, 10).join(", ")}`,
    );

  const id = newId("imp");
  return withTransaction(deps.db, async (tx) => {
    await tx.sql.query(
      "INSERT INTO import_jobs (id, integration_id, status, total, created_at, updated_at) VALUES ($1, $2, 'queued', $3, now(), now())",
      [id, integration.id, rows.length],
    );
    await tx.sql.query(
      `INSERT INTO import_job_rows (job_id, position, external_user_id, email, name, team_external_id, team_given)
       SELECT $1, r.position, r.external_user_id, r.email, r.name, r.team_external_id, r.team_given
       FROM jsonb_to_recordset($2::jsonb) AS r(position int, external_user_id text, email text, name text, team_external_id text, team_given boolean)`,
      [
        id,
        JSON.stringify(
          rows.map((row, position) => ({ position, ...row, team_given: row.team_external_id !== undefined })),
        ),
      ],
    );
    await deps.queue.enqueue(
      tx,
      QUEUES.imports,
      { importId: id, integrationId: integration.id, slug: integration.slug },
      id,
    );
    return getImport(tx, integration, id);
  });
}

export interface ImportJobData {
  importId: string;
  integrationId: string;
  slug: string;
}

/** Rows per chunk: one transaction each (import-chunk.ts). */
export const IMPORT_CHUNK_ROWS = 100;

/** `chunkRows` exists so tests can cross chunk boundaries with a few rows instead of hundreds. */
export async function runImportJob(
  deps: DirectoryDeps,
  job: ImportJobData,
  attempt: { last: boolean },
  chunkRows = IMPORT_CHUNK_ROWS,
): Promise<void> {
  const { db } = deps;
  const integration: ResolvedIntegration = { id: job.integrationId, organizationId: "", slug: job.slug };
  await db.sql.query(
    "UPDATE import_jobs SET status = 'processing', updated_at = now() WHERE id = $1 AND status = 'queued'",
    [job.importId],
  );
  try {
    // A crash after a chunk committed and before its provisioning finished: finish it now.
    const unfinished = await db.sql.query<{
      position: number;
      external_user_id: string;
      outcome: "created" | "existing";
    }>(
      `SELECT r.position, r.external_user_id, r.outcome FROM import_job_rows r
       JOIN partner_users u ON u.integration_id = $2 AND u.external_user_id = r.external_user_id
       WHERE r.job_id = $1 AND r.outcome IN ('created', 'existing') AND u.provisioning_status <> 'active' AND u.status <> 'deleted'`,
      [job.importId, job.integrationId],
    );
    await completeRows(
      deps,
      integration,
      job.importId,
      unfinished.rows.map((row) => ({
        position: row.position,
        externalUserId: row.external_user_id,
        outcome: row.outcome,
      })),
    );
    const { rows } = await db.sql.query<ImportRow>(
      "SELECT position, external_user_id, email, name, team_external_id, team_given FROM import_job_rows WHERE job_id = $1 AND outcome IS NULL ORDER BY position",
      [job.importId],
    );
    for (let start = 0; start < rows.length; start += chunkRows) {
      await importChunk(deps, integration, job.importId, rows.slice(start, start + chunkRows));
    }
    await withTransaction(db, async (tx) => {
      const { rowCount } = await tx.sql.query(
        "UPDATE import_jobs SET status = 'completed', completed_at = now(), updated_at = now() WHERE id = $1 AND status <> 'completed'",
        [job.importId],
      );
      if (rowCount === 1) await recordImportCompleted(tx, job.importId);
    });
  } catch (error) {
    deps.log?.("import step failed", { import_id: job.importId, last_attempt: attempt.last, error: String(error) });
    if (!attempt.last) throw error;
    await db.sql.query("UPDATE import_jobs SET status = 'failed', updated_at = now() WHERE id = $1", [job.importId]);
  }
}

export async function getImport(
  db: Database,
  integration: ResolvedIntegration,
  importId: string,
): Promise<ImportRecord> {
  const { rows } = await db.sql.query<{
    id: string;
    status: ImportStatus;
    total: number;
    created_at: Date;
    updated_at: Date;
    completed_at: Date | null;
  }>(
    "SELECT id, status, total, created_at, updated_at, completed_at FROM import_jobs WHERE id = $1 AND integration_id = $2",
    [importId, integration.id],
  );
  const job = rows[0];
  if (!job) throw new AppError("not_found", `import ${importId} not found`);
  const results = await db.sql.query<{
    external_user_id: string;
    outcome: RowOutcome;
    error_code: string | null;
    error_message: string | null;
  }>(
    "SELECT external_user_id, outcome, error_code, error_message FROM import_job_rows WHERE job_id = $1 AND outcome IS NOT NULL ORDER BY position",
    [importId],
  );
  const summary = { processed: results.rows.length, created: 0, existing: 0, pending: 0, failed: 0 };
  for (const row of results.rows) summary[row.outcome] += 1;
  return {
    id: job.id,
    integration: integration.slug,
    status: job.status,
    total: job.total,
    summary,
    results: results.rows.map((row) => ({
      externalUserId: row.external_user_id,
      outcome: row.outcome,
      errorCode: row.error_code,
      errorMessage: row.error_message,
    })),
    createdAt: job.created_at,
    updatedAt: job.updated_at,
    completedAt: job.completed_at,
  };
}

export interface ImportSummaryRecord {
  id: string;
  status: ImportStatus;
  total: number;
  processed: number;
  failed: number;
  createdAt: Date;
  completedAt: Date | null;
}

/** An integration's imports, newest first, with their progress (the console's import list); `total`, when asked, counts them all. */
export async function listImports(
  db: Database,
  integration: ResolvedIntegration,
  input: { limit: number; cursor?: string | undefined } & TotalOption,
): Promise<{
  imports: ImportSummaryRecord[];
  nextCursor: string | null;
  previousCursor: string | null;
  total?: number;
}> {
  const filters = { integration: integration.id };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "desc");
  const { rows } = await db.sql.query<{
    id: string;
    status: ImportStatus;
    total: number;
    processed: number;
    failed: number;
    created_at: Date;
    completed_at: Date | null;
  }>(
    `SELECT j.id, j.status, j.total, j.created_at, j.completed_at,
            count(r.outcome)::int AS processed, count(*) FILTER (WHERE r.outcome = 'failed')::int AS failed
     FROM import_jobs j LEFT JOIN import_job_rows r ON r.job_id = j.id
     WHERE j.integration_id = $1 AND ($2::timestamptz IS NULL OR (j.created_at, j.id) ${way.comparison} ($2::timestamptz, $3::text))
     GROUP BY j.id ORDER BY j.created_at ${way.order}, j.id ${way.order} LIMIT $4`,
    [integration.id, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
  );
  const counted = await totalWhenAsked(
    db,
    input,
    "SELECT count(*)::int AS total FROM import_jobs WHERE integration_id = $1",
    [integration.id],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters, from);
  return {
    ...counted,
    previousCursor: page.previousCursor,
    imports: page.rows.map((row) => ({
      id: row.id,
      status: row.status,
      total: row.total,
      processed: row.processed,
      failed: row.failed,
      createdAt: row.created_at,
      completedAt: row.completed_at,
    })),
    nextCursor: page.nextCursor,
  };
}

/** `import.completed` with the summary counts. */
async function recordImportCompleted(db: Database, importId: string): Promise<void> {
  const { rows } = await db.sql.query<{ id: string; organization_id: string; slug: string }>(
    "SELECT i.id, i.organization_id, i.slug FROM import_jobs j JOIN integrations i ON i.id = j.integration_id WHERE j.id = $1",
    [importId],
  );
  const integration = rows[0];
  if (!integration) return;
  const { results: _results, ...job } = await getImport(
    db,
    { id: integration.id, organizationId: integration.organization_id, slug: integration.slug },
    importId,
  );
  await recordEvent(db, {
    type: "import.completed",
    organizationId: integration.organization_id,
    integrationId: integration.id,
    subject: { import: job },
  });
}
