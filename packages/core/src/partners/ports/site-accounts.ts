import type { SiteAccountOrigin } from "./site-account-values";

/**
 * The partner-linked web-site account system (the "site", formerly WordPress), as the
 * service needs it. Adapters: LocalSiteAccounts (accounts in our database, for the
 * embedded default). Every method is idempotent so a retried job is safe.
 */
export interface SiteAccount {
  id: string;
  /** `partner`: created by a partner's provisioning; `self`: a pre-existing account of the hosted product. */
  origin: SiteAccountOrigin;
}

export interface SiteAccounts {
  findByEmail(email: string): Promise<SiteAccount | null>;
  /** Creates a partner-owned account (no password; the user sets one from the notification). */
  createPartnerAccount(input: { email: string; name?: string | undefined }): Promise<SiteAccount>;
  /**
   * Optional batch form of createPartnerAccount (an import's chunk, distinct emails): one result
   * per input, in order, each as the single call would have ended. Without it,
   * createPartnerAccounts calls createPartnerAccount once per input.
   */
  createPartnerAccounts?(
    inputs: Array<{ email: string; name?: string | undefined }>,
  ): Promise<Array<PromiseSettledResult<SiteAccount>>>;
  lock(accountId: string): Promise<void>;
  unlock(accountId: string): Promise<void>;
  destroySessions(accountId: string): Promise<void>;
  /**
   * Forgets the account's password and withdraws its password-setup links: after an email
   * change whoever chose the password need not own the new address. A setup link follows.
   */
  resetPassword(accountId: string): Promise<void>;
  sendPasswordSetup(accountId: string): Promise<void>;
  /**
   * Optional batch form of sendPasswordSetup (an import's chunk): one result per account, in
   * order, each as the single call would have ended; one account's failure is its own. Without
   * it, sendPasswordSetups calls sendPasswordSetup once per account.
   */
  sendPasswordSetups?(accountIds: string[]): Promise<Array<PromiseSettledResult<void>>>;
  /** Sends the new address a link that confirms an email change (pre-existing accounts). */
  sendEmailVerification(accountId: string, input: { newEmail: string; token: string }): Promise<void>;
  updateProfile(accountId: string, input: { email?: string | undefined; name?: string | undefined }): Promise<void>;
  /** Deletes a partner-created account (its sessions with it). Deleting twice is not an error. */
  deleteAccount(accountId: string): Promise<void>;
}

/** The port's sendPasswordSetups, or sendPasswordSetup once per account; a call that fails as a whole fails every account. */
export function sendPasswordSetups(
  port: SiteAccounts,
  accountIds: string[],
): Promise<Array<PromiseSettledResult<void>>> {
  if (accountIds.length === 0) return Promise.resolve([]);
  if (!port.sendPasswordSetups) return Promise.allSettled(accountIds.map((id) => port.sendPasswordSetup(id)));
  return port
    .sendPasswordSetups(accountIds)
    .catch((reason: unknown) => accountIds.map((): PromiseSettledResult<void> => ({ status: "rejected", reason })));
}

/** The port's createPartnerAccounts, or createPartnerAccount once per input; a call that fails as a whole fails every input. */
export function createPartnerAccounts(
  port: SiteAccounts,
  inputs: Array<{ email: string; name?: string | undefined }>,
): Promise<Array<PromiseSettledResult<SiteAccount>>> {
  if (inputs.length === 0) return Promise.resolve([]);
  if (!port.createPartnerAccounts) return Promise.allSettled(inputs.map((input) => port.createPartnerAccount(input)));
  return port
    .createPartnerAccounts(inputs)
    .catch((reason: unknown) => inputs.map((): PromiseSettledResult<SiteAccount> => ({ status: "rejected", reason })));
}
