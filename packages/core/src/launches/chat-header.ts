import type { Database } from "../db/database";
import type { ChatAuthority } from "./embed-auth";
import { describeLoan, type LoanSummary } from "./loan-context";

/**
 * What the hosted chat's header shows: the launch's loan in words and the signed-in user's
 * display name (null when the partner sent none). Only what the loan officer already knows:
 * no email address, no internal id.
 */
export interface ChatHeader {
  loan: LoanSummary;
  userName: string | null;
}

export async function chatHeader(db: Database, authority: ChatAuthority): Promise<ChatHeader> {
  const { rows } = await db.sql.query<{ name: string | null }>("SELECT name FROM partner_users WHERE id = $1", [
    authority.partnerUserId,
  ]);
  const user = rows[0];
  return { loan: describeLoan(authority.loanContext), userName: user?.name?.trim() || null };
}
