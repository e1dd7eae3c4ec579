import { AppError } from "../../errors/app-error";

/**
 * The rules PUT user (spec 3.1, 4.10) applies to what the database holds, as plain functions:
 * the single-row path (provision-user.ts) and an import's chunks (imports/import-chunk.ts) read the
 * same facts in their own way (one row, or a chunk of rows in one statement) and decide
 * through these, so a rule lives in one place.
 */

/** The team a request assigns: it must exist in this integration and be active. */
export function assignableTeamId(externalTeamId: string, team: { id: string; status: string } | undefined): string {
  if (!team)
    throw new AppError(
      "team_not_found",
      `team ${externalTeamId} not found; create it with PUT …/teams/${externalTeamId} first`,
    );
  if (team.status !== "active")
    throw new AppError("team_archived", `team ${externalTeamId} is archived; reactivate it or choose another team`);
  return team.id;
}

/** An existing user matches a PUT only alive and with the same (normalized) email. */
export function assertMatchesExistingUser(
  externalUserId: string,
  existing: { status: string; email: string },
  email: string,
): void {
  if (existing.status === "deleted") {
    throw new AppError(
      "identity_conflict",
      `user ${externalUserId} is deleted; ordinary provisioning cannot revive it: use POST …/reprovision`,
    );
  }
  if (existing.email !== email) {
    throw new AppError(
      "identity_conflict",
      `user ${externalUserId} exists with a different email; change it with POST …/profile-changes`,
    );
  }
}

/** The assignment a matched user gets: undefined when it stays as it is. */
export function teamChange(requested: string | null | undefined, current: string | null): string | null | undefined {
  return requested !== undefined && requested !== current ? requested : undefined;
}
