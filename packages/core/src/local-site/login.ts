import type { Database } from "../db/database";
import { AppError, isAppError } from "../errors/app-error";
import { assertSignInSessionOpen, completeSiteLogin } from "../launches/embed-auth";
import { beginSignInAttempt, SignInThrottled } from "../sign-ins/sign-in-throttle";
import { verifySiteLogin } from "./passwords";

/** Every failed site sign-in says this, whatever failed: nothing tells a right password from a wrong one. */
export const SITE_SIGN_IN_FAILED =
  "wrong email or password, or this sign-in has expired; if it keeps failing, open the assistant again from your loan file";

/**
 * The built-in site login of a hosted-chat sign-in session (spec 3.6): the session is checked
 * first, then the attempt is counted (per address, then per the launch's user), then the
 * password, and only the password of the account linked to the launch's user: any other email
 * fails like a wrong password without its password being looked at. So a sign-in session
 * reaches nobody else's account: guesses typed in it neither test another person's password
 * nor count against it (a loan officer of one lender cannot lock out another lender's users).
 * Every failure but a throttle says the same thing; a throttle says when to try again.
 */
export async function signInAtLocalSite(
  db: Database,
  input: { sessionToken: string; email: string; password: string; address: string },
): Promise<void> {
  try {
    const session = await assertSignInSessionOpen(db, input.sessionToken);
    const attempt = await beginSignInAttempt(db, "site-login", {
      account: `partner-user:${session.partnerUserId}`,
      address: input.address,
    });
    const accountId = await verifySiteLogin(db, {
      email: input.email,
      password: input.password,
      onlyAccountId: session.siteAccountId,
    });
    await completeSiteLogin(db, { sessionToken: input.sessionToken, siteAccountId: accountId });
    await attempt.succeeded();
  } catch (error) {
    if (error instanceof SignInThrottled || !isAppError(error)) throw error;
    throw new AppError("unauthorized", SITE_SIGN_IN_FAILED);
  }
}
