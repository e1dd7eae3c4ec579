import type { Database } from "../../db/database";
import { announceLaunchEligibility, recordUserEvent, userSnapshots } from "../../webhooks/partner-events";
import { recordEvent } from "../../webhooks/record-event";
import { getOperationById } from "./get-operation";

/** `operation.completed` or `operation.failed` (with the user as it now stands), then the user events the outcome implies. */
export async function recordOperationOutcome(db: Database, operationId: string): Promise<void> {
  const operation = await getOperationById(db, operationId);
  if (operation.status !== "completed" && operation.status !== "failed") return;
  const { rows } = await db.sql.query<{ partner_user_id: string }>(
    "SELECT partner_user_id FROM lifecycle_operations WHERE id = $1",
    [operationId],
  );
  const userId = rows[0]?.partner_user_id;
  if (!userId) return;
  const [snapshot] = await userSnapshots(db, [userId]);
  if (!snapshot) return;
  await recordEvent(db, {
    type: operation.status === "completed" ? "operation.completed" : "operation.failed",
    organizationId: snapshot.organizationId,
    integrationId: snapshot.integrationId,
    subject: { operation, user: snapshot.user },
    orderingKey: userId,
  });
  if (operation.type === "deletion" && operation.status === "completed")
    await recordUserEvent(db, "user.deleted", userId);
  else if (operation.type === "reprovision" && operation.status === "failed")
    await recordUserEvent(db, "user.provisioning_failed", userId);
  else await announceLaunchEligibility(db, [userId]);
}
