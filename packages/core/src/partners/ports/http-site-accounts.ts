import { normalizeEmail } from "../../shared/email";
import { httpJson, HttpRefused, type HttpTarget } from "./http-json";
import type { SiteAccount, SiteAccounts } from "./site-accounts";

/**
 * The site-account system over HTTP (contract: docs/site-accounts-contract.md). Users are
 * the WordPress REST API's (`/wp-json/wp/v2/users`, application-password Basic auth); what
 * WordPress core has no route for (lock, sessions, password reset, notifications) lives under the
 * `/wp-json/mga/v1` namespace of the site's companion plugin.
 */
interface WpUser {
  id: number;
  email?: string;
  meta?: { mga_origin?: string };
}

export class HttpSiteAccounts implements SiteAccounts {
  private readonly target: HttpTarget;

  constructor(options: { url: string; username: string; applicationPassword: string; timeoutMs?: number }) {
    this.target = {
      baseUrl: options.url,
      service: "the site-account system",
      timeoutMs: options.timeoutMs ?? 10_000,
      headers: {
        Authorization: `Basic ${Buffer.from(`${options.username}:${options.applicationPassword}`).toString("base64")}`,
      },
    };
  }

  async findByEmail(email: string): Promise<SiteAccount | null> {
    const wanted = normalizeEmail(email);
    const { data } = await httpJson<WpUser[]>(
      this.target,
      "GET",
      `/wp-json/wp/v2/users?context=edit&search=${encodeURIComponent(wanted)}&search_columns=user_email`,
    );
    // `search` matches substrings: only an exact (case-insensitive) address counts.
    const match = (data ?? []).find((user) => user.email !== undefined && normalizeEmail(user.email) === wanted);
    return match ? toAccount(match) : null;
  }

  async createPartnerAccount(input: { email: string; name?: string | undefined }): Promise<SiteAccount> {
    const email = normalizeEmail(input.email);
    try {
      const { data } = await httpJson<WpUser>(this.target, "POST", "/wp-json/wp/v2/users", {
        username: email,
        email,
        ...(input.name ? { name: input.name } : {}),
        // WordPress requires a password; the user replaces it from the password-setup link.
        password: crypto.randomUUID() + crypto.randomUUID(),
        meta: { mga_origin: "partner" },
      });
      return toAccount(data);
    } catch (error) {
      // Created by an earlier attempt whose answer was lost: find it instead of failing.
      if (error instanceof HttpRefused && error.status === 400) {
        const existing = await this.findByEmail(email);
        if (existing) return existing;
      }
      throw error;
    }
  }

  async lock(accountId: string): Promise<void> {
    await httpJson(this.target, "POST", `/wp-json/mga/v1/users/${accountId}/lock`, { locked: true });
  }

  async unlock(accountId: string): Promise<void> {
    await httpJson(this.target, "POST", `/wp-json/mga/v1/users/${accountId}/lock`, { locked: false });
  }

  async destroySessions(accountId: string): Promise<void> {
    await httpJson(this.target, "DELETE", `/wp-json/mga/v1/users/${accountId}/sessions`);
  }

  async resetPassword(accountId: string): Promise<void> {
    await httpJson(this.target, "POST", `/wp-json/mga/v1/users/${accountId}/password-reset`, {});
  }

  async sendPasswordSetup(accountId: string): Promise<void> {
    await httpJson(this.target, "POST", `/wp-json/mga/v1/users/${accountId}/notifications`, { kind: "password_setup" });
  }

  async sendEmailVerification(accountId: string, input: { newEmail: string; token: string }): Promise<void> {
    await httpJson(this.target, "POST", `/wp-json/mga/v1/users/${accountId}/notifications`, {
      kind: "email_verification",
      new_email: normalizeEmail(input.newEmail),
      token: input.token,
    });
  }

  async updateProfile(
    accountId: string,
    input: { email?: string | undefined; name?: string | undefined },
  ): Promise<void> {
    await httpJson(this.target, "POST", `/wp-json/wp/v2/users/${accountId}`, {
      ...(input.email !== undefined ? { email: normalizeEmail(input.email) } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
    });
  }

  async deleteAccount(accountId: string): Promise<void> {
    try {
      // WordPress needs `reassign` to delete a user; content goes nowhere (partner accounts own none).
      await httpJson(this.target, "DELETE", `/wp-json/wp/v2/users/${accountId}?force=true&reassign=false`);
    } catch (error) {
      // Already deleted by an earlier attempt.
      if (error instanceof HttpRefused && error.status === 404) return;
      throw error;
    }
  }
}

function toAccount(user: WpUser): SiteAccount {
  return { id: String(user.id), origin: user.meta?.mga_origin === "partner" ? "partner" : "self" };
}
