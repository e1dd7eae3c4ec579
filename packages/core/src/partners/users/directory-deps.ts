import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { ChatIdentities } from "../ports/chat-identities";
import type { SiteAccounts } from "../ports/site-accounts";

/** What the partner-user operations work with: the database and the systems behind a user. */
export interface DirectoryDeps {
  db: Database;
  siteAccounts: SiteAccounts;
  chatIdentities: ChatIdentities;
  /** When present, provisioning left pending is retried in the background. */
  queue?: JobQueue;
  log?: (message: string, fields: Record<string, unknown>) => void;
}
