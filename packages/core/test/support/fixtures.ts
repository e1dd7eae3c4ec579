import { type Database } from "../../src/db/database";
import { JobQueue } from "../../src/jobs/job-queue";
import { createApiKey } from "../../src/keys/api-keys";
import { authenticateApiKey, type AuthenticatedKey } from "../../src/keys/authenticate-api-key";
import { type Scope } from "../../src/keys/scopes";
import { bindLaunchKey } from "../../src/launches/launch-bindings";
import { issueLaunch, type LoanContext } from "../../src/launches/launches";
import { localDirectory } from "../../src/local-site/directory";
import { createOrganization, type Organization } from "../../src/orgs/organizations";
import { runImportJob } from "../../src/partners/imports/imports";
import { type IntegrationStatus } from "../../src/partners/integrations/integration-status";
import { createIntegration, type IntegrationRecord } from "../../src/partners/integrations/integrations";
import { requestDeletion, type OperationDeps } from "../../src/partners/operations/index";
import { runLifecycleJob } from "../../src/partners/operations/run-operation";
import { type SiteAccounts } from "../../src/partners/ports/site-accounts";
import { putTeam, type TeamRecord } from "../../src/partners/teams/teams";
import { getPartnerUser, provisionPartnerUser, setPartnerUserStatus } from "../../src/partners/users/index";
import { type PartnerUserRecord } from "../../src/partners/users/partner-user";
import { runProvisioningJob } from "../../src/partners/users/provisioning-job";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

/**
 * The fixture builder of core's domain tests: every thing is made through the domain's own
 * functions (nothing the service itself creates is inserted behind its back), with defaults
 * and values unique per call, so a test states only what its behaviour depends on.
 *
 * The job queue is real (pg-boss in the test database) but nobody works it: a test runs the
 * worker functions itself (`runOperation`, `runImport`, `runProvisioning`), as
 * jobs/workers.ts would, so it decides when each step happens and whether it is the last attempt.
 */
export interface Fixtures {
  db: Database;
  /** The test database's URL, for a handle of its own (recordingDatabase). */
  url: string;
  queue: JobQueue;
  /** What the domain's directory and lifecycle functions are handed: the built-in ports, behind the outage switch. */
  deps: OperationDeps;
  /** While true, every call to the site-account system fails (as when it is down). */
  outage: { siteAccounts: boolean };
  email(): string;
  organization(input?: { name?: string }): Promise<Organization>;
  integration(input?: {
    org?: { id: string };
    slug?: string;
    aliases?: string[];
    status?: IntegrationStatus;
  }): Promise<IntegrationRecord>;
  team(input: { integration: IntegrationRecord; externalTeamId?: string; name?: string }): Promise<TeamRecord>;
  /** A provisioned user, then brought to `status` ("pending": provisioned while the site-account system is down). */
  user(input?: {
    integration?: IntegrationRecord;
    externalUserId?: string;
    email?: string;
    name?: string;
    team?: TeamRecord;
    status?: "active" | "disabled" | "deleted" | "pending";
  }): Promise<PartnerUserRecord & { email: string }>;
  /** An account of the hosted product itself (origin `self`): made by the person, not by this service. */
  selfSiteAccount(input?: { email?: string }): Promise<{ id: string; email: string }>;
  /** The site account a user is linked to (never part of the user record partners see). */
  siteAccountOf(integration: IntegrationRecord, externalUserId: string): Promise<string | null>;
  apiKey(input: { org: { id: string }; scopes?: Scope[] }): Promise<AuthenticatedKey>;
  /** A key with `embed:launch`, bound to `publicName` (default: the integration's slug). */
  launchKey(input: { integration: IntegrationRecord; publicName?: string }): Promise<AuthenticatedKey>;
  /** Issues a launch and returns its single-use code (from the URL's fragment) with the issue's result. */
  launch(input: {
    key: AuthenticatedKey;
    integration: IntegrationRecord;
    externalUserId: string;
    publicName?: string;
    loanContext?: LoanContext;
  }): Promise<{ code: string; launchId: string; launchUrl: string; expiresAt: Date }>;
  runOperation(operationId: string, attempt?: { last: boolean }): Promise<void>;
  /** The job that creates and sends an email change's verification link; returns the link's token. */
  sendVerification(operationId: string): Promise<string>;
  runImport(
    importId: string,
    integration: IntegrationRecord,
    attempt?: { last: boolean },
    chunkRows?: number,
  ): Promise<void>;
  runProvisioning(integration: IntegrationRecord, externalUserId: string, attempt?: { last: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** A database of this test file's own, a queue in it, and the builder over them. */
export async function openFixtures(): Promise<Fixtures> {
  const t = await createTestDatabase();
  const queue = await JobQueue.start({ connectionString: t.url });
  return fixtures(t, queue);
}

export function fixtures(t: TestDatabase, queue: JobQueue): Fixtures {
  const { db } = t;
  const outage = { siteAccounts: false };
  const local = localDirectory(db);
  const deps: OperationDeps = {
    db,
    queue,
    siteAccounts: withOutage(local.siteAccounts, outage),
    chatIdentities: local.chatIdentities,
  };
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  let counter = 0;
  const unique = (prefix: string) => `${prefix}-${run}-${++counter}`;

  const f: Fixtures = {
    db,
    url: t.url,
    queue,
    deps,
    outage,
    email: () => `${unique("person")}@lender.test`,
    organization: (input = {}) => createOrganization(db, { name: input.name ?? unique("Lender") }),
    async integration(input = {}) {
      const org = input.org ?? (await f.organization());
      return createIntegration(db, {
        organizationId: org.id,
        slug: input.slug ?? unique("los"),
        aliases: input.aliases,
        status: input.status,
      });
    },
    async team(input) {
      const { team } = await putTeam(db, input.integration, input.externalTeamId ?? unique("team"), {
        name: input.name ?? "Retail branch",
      });
      return team;
    },
    async user(input = {}) {
      const integration = input.integration ?? (await f.integration());
      const externalUserId = input.externalUserId ?? unique("lo");
      const email = input.email ?? f.email();
      const status = input.status ?? "active";
      outage.siteAccounts = status === "pending";
      try {
        await provisionPartnerUser(deps, integration, externalUserId, {
          email,
          name: input.name ?? "Loan Officer",
          teamExternalId: input.team?.externalTeamId,
        });
      } finally {
        outage.siteAccounts = false;
      }
      if (status === "disabled") await setPartnerUserStatus(deps, integration, externalUserId, "disabled");
      if (status === "deleted") await f.runOperation(await requestDeletion(deps, integration, externalUserId, {}));
      return { ...(await getPartnerUser(db, integration, externalUserId)), email };
    },
    async selfSiteAccount(input = {}) {
      const account = { id: unique("sa_self"), email: input.email ?? f.email() };
      await db.sql.query("INSERT INTO site_accounts (id, email, origin) VALUES ($1, $2, 'self')", [
        account.id,
        account.email,
      ]);
      return account;
    },
    async siteAccountOf(integration, externalUserId) {
      const { rows } = await db.sql.query<{ site_account_id: string | null }>(
        "SELECT site_account_id FROM partner_users WHERE integration_id = $1 AND external_user_id = $2",
        [integration.id, externalUserId],
      );
      return rows[0]?.site_account_id ?? null;
    },
    async apiKey(input) {
      const { plaintext } = await createApiKey(db, {
        organizationId: input.org.id,
        name: unique("key"),
        scopes: input.scopes ?? ["chat:read"],
      });
      return authenticateApiKey(db, plaintext);
    },
    async launchKey(input) {
      const key = await f.apiKey({ org: { id: input.integration.organizationId }, scopes: ["embed:launch"] });
      await bindLaunchKey(db, { apiKeyId: key.id, publicName: input.publicName ?? input.integration.slug });
      return key;
    },
    async launch(input) {
      const issued = await issueLaunch(db, {
        key: input.key,
        publicName: input.publicName ?? input.integration.slug,
        externalUserId: input.externalUserId,
        loanContext: input.loanContext ?? { external_loan_id: "LN-1" },
        appUrl: "https://chat.example.test",
      });
      const code = new URLSearchParams(new URL(issued.launchUrl).hash.slice(1)).get("code");
      if (!code) throw new Error(`launch URL without a code: ${issued.launchUrl}`);
      return { code, ...issued };
    },
    runOperation: (operationId, attempt = { last: false }) => runLifecycleJob(deps, { operationId }, attempt),
    async sendVerification(operationId) {
      await runLifecycleJob(deps, { operationId, sendVerification: true }, { last: false });
      const { rows } = await db.sql.query<{ payload: { link: string } }>(
        "SELECT payload FROM notification_outbox WHERE kind = 'email_verification' ORDER BY created_at DESC, id DESC LIMIT 1",
      );
      const link = rows[0] ? db.secrets.open("notification-link", rows[0].payload.link) : undefined;
      const token = link?.split("#token=")[1];
      if (!token) throw new Error(`no verification link was sent for ${operationId}`);
      return token;
    },
    runImport: (importId, integration, attempt = { last: false }, chunkRows) =>
      runImportJob(deps, { importId, integrationId: integration.id, slug: integration.slug }, attempt, chunkRows),
    runProvisioning: (integration, externalUserId, attempt = { last: false }) =>
      runProvisioningJob(deps, { integrationId: integration.id, slug: integration.slug, externalUserId }, attempt),
    async close() {
      await queue.stop();
      await t.drop();
    },
  };
  return f;
}

/** The site-account port, failing every call while `outage.siteAccounts` is set. */
function withOutage(siteAccounts: SiteAccounts, outage: { siteAccounts: boolean }): SiteAccounts {
  return new Proxy(siteAccounts, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        outage.siteAccounts
          ? Promise.reject(new Error("the site-account system is unavailable"))
          : value.apply(target, args);
    },
  });
}

/** The code of the AppError a promise is refused with ("ok" when it succeeds), for tests that compare codes. */
export function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "ok",
    (error: { code?: string }) => error.code ?? `not an AppError: ${String(error)}`,
  );
}
