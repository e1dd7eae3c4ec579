import type { Database } from "../db/database";
import {
  launchEligibility,
  toPartnerUser,
  USER_COLUMNS,
  USER_FROM,
  type PartnerUserRecord,
  type UserRow,
} from "../partners/users/partner-user";
import { recordEvent, recordEvents } from "./record-event";

/**
 * The events of the partner directory, recorded by the code that makes each change, with its
 * `tx` (docs/decisions.md, "Events and webhooks"). Each reads the resource as it stands in that
 * transaction, so the event shows the state the change produced.
 */

export interface UserSnapshot {
  user: PartnerUserRecord;
  organizationId: string;
  integrationId: string;
  launchAnnounced: boolean;
}

export async function userSnapshots(db: Database, userIds: string[]): Promise<UserSnapshot[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.sql.query<
    UserRow & { slug: string; organization_id: string; integration_id: string; launch_announced: boolean }
  >(
    `SELECT ${USER_COLUMNS}, i.slug, i.organization_id, i.id AS integration_id, u.launch_announced
     FROM ${USER_FROM} JOIN integrations i ON i.id = u.integration_id WHERE u.id = ANY($1::text[]) ORDER BY u.id`,
    [userIds],
  );
  return rows.map((row) => ({
    user: toPartnerUser(row.slug, row),
    organizationId: row.organization_id,
    integrationId: row.integration_id,
    launchAnnounced: row.launch_announced,
  }));
}

/** `user.disabled`, `user.reactivated`, `user.deleted` or `user.provisioning_failed` for one user, then its launch eligibility. */
export async function recordUserEvent(
  db: Database,
  type: "user.disabled" | "user.reactivated" | "user.deleted" | "user.provisioning_failed",
  userId: string,
): Promise<void> {
  const [snapshot] = await userSnapshots(db, [userId]);
  if (!snapshot) return;
  await recordEvent(db, {
    type,
    organizationId: snapshot.organizationId,
    integrationId: snapshot.integrationId,
    subject: { user: snapshot.user },
    orderingKey: userId,
  });
  await announceLaunchEligibility(db, [userId]);
}

/**
 * `user.launch_eligibility_changed` for each user whose `can_launch` differs from what was last
 * announced (stored on the user, compared and set in the caller's transaction). Cheap and
 * idempotent: every code path that may change a user calls it, and only real flips are recorded.
 */
export async function announceLaunchEligibility(db: Database, userIds: string[]): Promise<void> {
  const flips = (await userSnapshots(db, userIds)).flatMap((snapshot) => {
    const canLaunch = launchEligibility(snapshot.user).canLaunch;
    return canLaunch === snapshot.launchAnnounced ? [] : [{ snapshot, canLaunch }];
  });
  if (flips.length === 0) return;
  // One statement for an import chunk's hundred users; a flip another transaction made first is skipped.
  const { rows } = await db.sql.query<{ id: string }>(
    `UPDATE partner_users u SET launch_announced = f.can_launch
     FROM unnest($1::text[], $2::boolean[]) AS f(id, can_launch)
     WHERE u.id = f.id AND u.launch_announced <> f.can_launch RETURNING u.id`,
    [flips.map((flip) => flip.snapshot.user.id), flips.map((flip) => flip.canLaunch)],
  );
  const flipped = new Set(rows.map((row) => row.id));
  await recordEvents(
    db,
    flips
      .filter((flip) => flipped.has(flip.snapshot.user.id))
      .map(({ snapshot }) => ({
        type: "user.launch_eligibility_changed",
        organizationId: snapshot.organizationId,
        integrationId: snapshot.integrationId,
        subject: { user: snapshot.user },
        orderingKey: snapshot.user.id,
      })),
  );
}
