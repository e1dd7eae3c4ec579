import type { ImportRecord } from "@mga/core/partners/imports";

export function importToWire(job: ImportRecord) {
  return {
    job_id: job.id,
    integration: job.integration,
    status: job.status,
    total: job.total,
    summary: job.summary,
    results: job.results.map((row) => ({
      external_user_id: row.externalUserId,
      outcome: row.outcome,
      error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null,
    })),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    completed_at: job.completedAt?.toISOString() ?? null,
  };
}
