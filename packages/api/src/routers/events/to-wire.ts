import type { z } from "zod";

import type { OperationRecord } from "@mga/core/partners/operations";
import type { PartnerUserRecord } from "@mga/core/partners/users";
import type { EventSubject, ImportEventRecord, StoredEvent } from "@mga/core/webhooks";

import { operationToWire } from "../partners/operations/to-wire";
import { userToWire } from "../partners/users/to-wire";
import { eventSchema } from "./events.types";

/** The recorded subject is JSON: its dates come back as strings. */
const date = (value: Date | string) => new Date(value);
const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

const reviveUser = (user: PartnerUserRecord): PartnerUserRecord => ({
  ...user,
  createdAt: date(user.createdAt),
  updatedAt: date(user.updatedAt),
  lifecycleOperation: user.lifecycleOperation
    ? { ...user.lifecycleOperation, updatedAt: date(user.lifecycleOperation.updatedAt) }
    : null,
});

const reviveOperation = (op: OperationRecord): OperationRecord => ({
  ...op,
  createdAt: date(op.createdAt),
  updatedAt: date(op.updatedAt),
  completedAt: dateOrNull(op.completedAt),
});

function importToWire(job: ImportEventRecord) {
  return {
    job_id: job.id,
    integration: job.integration,
    status: job.status,
    total: job.total,
    summary: job.summary,
    created_at: date(job.createdAt).toISOString(),
    updated_at: date(job.updatedAt).toISOString(),
    completed_at: dateOrNull(job.completedAt)?.toISOString() ?? null,
  };
}

function dataToWire(subject: EventSubject): Record<string, unknown> {
  if ("operation" in subject)
    return {
      operation: operationToWire(reviveOperation(subject.operation)),
      ...(subject.user ? { user: userToWire(reviveUser(subject.user)) } : {}),
    };
  if ("user" in subject) return { user: userToWire(reviveUser(subject.user)) };
  if ("import" in subject) return { import: importToWire(subject.import) };
  const key = subject.key;
  return {
    key: { id: key.id, name: key.name, last_four: key.lastFour, expires_at: date(key.expiresAt).toISOString() },
  };
}

/**
 * An event's public form, checked against the catalogue's schema (which is what sanitizes it:
 * a field a schema does not declare is refused, never passed on). The body of every webhook and
 * each item of GET /v1/events.
 */
export function eventToWire(event: StoredEvent): z.infer<typeof eventSchema> {
  return eventSchema.parse({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    integration: event.integration,
    data: dataToWire(event.subject),
  });
}
