/** The closed value sets of a bulk import (spec 2.13), enforced by CHECK constraints on import_jobs and import_job_rows. */
export const IMPORT_STATUSES = ["queued", "processing", "completed", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** A row's outcome; null until the row is processed. */
export const IMPORT_ROW_OUTCOMES = ["created", "existing", "pending", "failed"] as const;
export type RowOutcome = (typeof IMPORT_ROW_OUTCOMES)[number];
