import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  applyProfileOverride,
  confirmEmailVerification,
  expireStaleVerifications,
  getOperation,
  requestProfileChange,
} from "../../../src/partners/operations/index";
import {
  getPartnerUser,
  getPartnerUserContact,
  provisionPartnerUser,
  setPartnerUserStatus,
} from "../../../src/partners/users/index";
import { planOf, recordingDatabase, seqScanned } from "../../support/database-probes";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** POST profile-changes (spec 3.3): direct for an account the partner owns, verified or overridden otherwise. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

let address = 0;
const confirm = (token: string) => confirmEmailVerification(f.deps, { token, address: `198.51.100.${++address}` });
const siteAccount = async (id: string | null) =>
  (
    await f.db.sql.query<{ email: string; name: string | null }>(
      "SELECT email, name FROM site_accounts WHERE id = $1",
      [id],
    )
  ).rows[0];
const jobsFor = async (operationId: string) =>
  (
    await f.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'operationId' = $1", [
      operationId,
    ])
  ).rows[0]?.n;

describe("an account the partner owns (partner-created, no other mapping)", () => {
  it("a name change is applied directly and keeps access (no logout)", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration, name: "Before" });
    const operationId = await requestProfileChange(f.deps, integration, user.externalUserId, { name: "After" });
    expect(await getPartnerUser(f.db, integration, user.externalUserId)).toMatchObject({
      profileSyncStatus: "pending",
      lifecycleOperation: { id: operationId, status: "queued" },
    });
    expect(await jobsFor(operationId)).toBe(1);

    await f.runOperation(operationId);
    expect((await getOperation(f.db, integration, operationId)).status).toBe("completed");
    const after = await getPartnerUser(f.db, integration, user.externalUserId);
    expect(after).toMatchObject({
      profileVersion: user.profileVersion + 1,
      profileSyncStatus: "applied",
      accessVersion: user.accessVersion,
    });
    expect((await getPartnerUserContact(f.db, user.id)).name).toBe("After");
    expect((await siteAccount(await f.siteAccountOf(integration, user.externalUserId)))?.name).toBe("After");
  });

  it("an email change re-emails the account, revokes access and sends a password setup to the new address", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const accountId = await f.siteAccountOf(integration, user.externalUserId);
    const email = f.email();
    await f.runOperation(await requestProfileChange(f.deps, integration, user.externalUserId, { email }));
    const after = await getPartnerUser(f.db, integration, user.externalUserId);
    expect(after).toMatchObject({
      accessVersion: user.accessVersion + 1,
      profileVersion: user.profileVersion + 1,
      identityOrigin: "partner_created",
    });
    expect(await siteAccount(accountId)).toMatchObject({ email });
    const sent = await f.db.sql.query("SELECT kind FROM notification_outbox WHERE recipient = $1", [email]);
    expect(sent.rows).toEqual([{ kind: "password_setup" }]);
  });

  it("a worker run repeated after completion applies the change once", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const operationId = await requestProfileChange(f.deps, integration, user.externalUserId, { name: "Once" });
    await f.runOperation(operationId);
    await f.runOperation(operationId);
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).profileVersion).toBe(user.profileVersion + 1);
  });

  it("a newer change cancels the one still waiting", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const first = await requestProfileChange(f.deps, integration, user.externalUserId, { name: "First" });
    const second = await requestProfileChange(f.deps, integration, user.externalUserId, { name: "Second" });
    await f.runOperation(first);
    await f.runOperation(second);
    expect((await getOperation(f.db, integration, first)).status).toBe("cancelled");
    expect((await getOperation(f.db, integration, second)).status).toBe("completed");
    expect((await getPartnerUserContact(f.db, user.id)).name).toBe("Second");
  });
});

describe("requests refused, with nothing changed", () => {
  it("no change, a user not provisioned yet, a deleted user, another user's email", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration, name: "Same" });
    expect(
      await refusal(
        requestProfileChange(f.deps, integration, user.externalUserId, {
          email: user.email.toUpperCase(),
          name: "Same",
        }),
      ),
    ).toBe("invalid_request");
    const pending = await f.user({ integration, status: "pending" });
    expect(await refusal(requestProfileChange(f.deps, integration, pending.externalUserId, { name: "X" }))).toBe(
      "identity_conflict",
    );
    const deleted = await f.user({ integration, status: "deleted" });
    expect(await refusal(requestProfileChange(f.deps, integration, deleted.externalUserId, { name: "X" }))).toBe(
      "identity_conflict",
    );
    const other = await f.user({ integration });
    const taken = requestProfileChange(f.deps, integration, user.externalUserId, { email: other.email });
    await expect(taken).rejects.toMatchObject({ code: "identity_conflict", field: "email" });
    const ops = await f.db.sql.query("SELECT 1 FROM lifecycle_operations WHERE partner_user_id = ANY ($1)", [
      [user.id, pending.id, other.id],
    ]);
    expect(ops.rowCount).toBe(0);
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).profileSyncStatus).toBe("applied");
  });
});

describe("a pre-existing account", () => {
  it("a name-only change needs the staff override; the override is audited and applied", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    expect(await refusal(requestProfileChange(f.deps, integration, user.externalUserId, { name: "Renamed" }))).toBe(
      "identity_conflict",
    );
    expect(
      await refusal(
        applyProfileOverride(f.deps, integration, user.externalUserId, {
          name: "Renamed",
          actor: "staff@us.test",
          reason: " ",
        }),
      ),
    ).toBe("invalid_request");
    // Issue 24: a reason the audit log can use, at least 10 characters.
    expect(
      await refusal(
        applyProfileOverride(f.deps, integration, user.externalUserId, {
          name: "Renamed",
          actor: "staff@us.test",
          reason: "x",
        }),
      ),
    ).toBe("invalid_request");

    const op = await applyProfileOverride(f.deps, integration, user.externalUserId, {
      name: "Renamed",
      actor: "staff@us.test",
      reason: "support ticket 42",
    });
    const audit = await f.db.sql.query<{ actor: string; details: Record<string, unknown> }>(
      "SELECT actor, details FROM audit_log WHERE action = 'partner_user.profile_override' AND target = $1",
      [`${integration.slug}/${user.externalUserId}`],
    );
    // The old and new values, for staff (issue 24, item 15).
    expect(audit.rows).toEqual([
      {
        actor: "staff@us.test",
        details: {
          operation_id: op.id,
          integration_id: integration.id,
          reason: "support ticket 42",
          fields: ["name"],
          name: { from: "Loan Officer", to: "Renamed" },
        },
      },
    ]);
    await f.runOperation(op.id);
    expect((await getOperation(f.db, integration, op.id)).status).toBe("completed");
    expect((await siteAccount(own.id))?.name).toBe("Renamed");
  });

  it("an email change waits for verification at the new address, the old profile staying; once confirmed the user moves to the new address's account", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    const email = f.email();
    const operationId = await requestProfileChange(f.deps, integration, user.externalUserId, { email });
    expect((await getOperation(f.db, integration, operationId)).status).toBe("verification_pending");
    expect((await getPartnerUserContact(f.db, user.id)).email).toBe(own.email);
    // Running the operation's job before the confirmation does nothing.
    await f.runOperation(operationId);
    expect((await getOperation(f.db, integration, operationId)).status).toBe("verification_pending");

    const token = await f.sendVerification(operationId);
    expect((await confirm(token)).status).toBe("queued");
    expect(await refusal(confirm(token))).toBe("not_found");
    await f.runOperation(operationId);
    expect((await getOperation(f.db, integration, operationId)).status).toBe("completed");
    const moved = await getPartnerUser(f.db, integration, user.externalUserId);
    expect(moved).toMatchObject({
      accessVersion: user.accessVersion + 1,
      provisioningStatus: "pending",
      wordpressLinked: false,
    });
    await f.runProvisioning(integration, user.externalUserId);
    expect(await getPartnerUser(f.db, integration, user.externalUserId)).toMatchObject({
      provisioningStatus: "active",
      identityOrigin: "partner_created",
    });
    expect(await f.siteAccountOf(integration, user.externalUserId)).not.toBe(own.id);
    expect(await siteAccount(own.id)).toMatchObject({ email: own.email });
  });

  it("a verification not confirmed within 24 hours expires, and its link stops working", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    const late = await requestProfileChange(f.deps, integration, user.externalUserId, { email: f.email() });
    const lateToken = await f.sendVerification(late);
    const pastDeadline = (id: string) =>
      f.db.sql.query(
        "UPDATE lifecycle_operations SET verification_expires_at = now() - interval '1 second' WHERE id = $1",
        [id],
      );
    await pastDeadline(late);
    // Confirmed after the deadline, before any sweep: the link answers with the expired change.
    expect((await confirm(lateToken)).status).toBe("expired");

    const swept = await requestProfileChange(f.deps, integration, user.externalUserId, { email: f.email() });
    const sweptToken = await f.sendVerification(swept);
    await pastDeadline(swept);
    expect(await expireStaleVerifications(f.db)).toBeGreaterThanOrEqual(1);
    expect((await getOperation(f.db, integration, swept)).status).toBe("expired");
    expect(await refusal(confirm(sweptToken))).toBe("not_found");
    expect((await getPartnerUserContact(f.db, user.id)).email).toBe(own.email);
  });

  it("the sweep finds the links still pending by their expiry, not by reading every operation", async () => {
    // lifecycle_operations is never pruned, and every instance sweeps every 5 minutes.
    const recording = recordingDatabase(f.url, f.db.secrets);
    await expireStaleVerifications(recording.db).finally(() => recording.db.close());
    const [sweep] = recording.queries;
    if (!sweep) throw new Error("the sweep ran no statement");
    expect(seqScanned(await planOf(f.db, sweep))).not.toContain("lifecycle_operations");
  });

  it("disabling the user withdraws an email change waiting for verification", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    const operationId = await requestProfileChange(f.deps, integration, user.externalUserId, { email: f.email() });
    const token = await f.sendVerification(operationId);
    await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    expect((await getOperation(f.db, integration, operationId)).status).toBe("cancelled");
    expect(await refusal(confirm(token))).toBe("not_found");
  });

  it("an address another user of the integration took while the change waited: the confirmed change fails with identity_conflict and changes nothing", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    const email = f.email();
    const operationId = await requestProfileChange(f.deps, integration, user.externalUserId, { email });
    const token = await f.sendVerification(operationId);
    await provisionPartnerUser(f.deps, integration, "lo-quicker", { email });
    await confirm(token);
    await f.runOperation(operationId);
    expect(await getOperation(f.db, integration, operationId)).toMatchObject({
      status: "failed",
      errorCode: "identity_conflict",
    });
    expect(await getPartnerUser(f.db, integration, user.externalUserId)).toMatchObject({
      profileSyncStatus: "failed",
      accessVersion: user.accessVersion,
    });
    expect((await getPartnerUserContact(f.db, user.id)).email).toBe(own.email);
  });
});
