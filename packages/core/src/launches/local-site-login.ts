import type { Database } from "../db/database";
import { AppError, isAppError } from "../errors/app-error";
import { SITE_SIGN_IN_FAILED, verifySiteLogin } from "../partners/ports/local-site-passwords";
import { SignInThrottled } from "../sign-ins/sign-in-throttle";
import { assertSignInSessionOpen, completeSiteLogin } from "./embed-auth";

/**
 * The built-in site login of a hosted-chat sign-in session (spec 3.6): the session is checked
 * first, then the throttled password check, then the account must be the one linked to the
 * launch's user. Every failure but a throttle says the same thing, so no answer tells a right
 * password from a wrong one; a throttle says when to try again.
 */
export async function signInAtLocalSite(db: Database, input: { sessionToken: string; email: string; password: string; address: string }): Promise<void> {
  try {
    await assertSignInSessionOpen(db, input.sessionToken);
    const accountId = await verifySiteLogin(db, input);
    await completeSiteLogin(db, { sessionToken: input.sessionToken, siteAccountId: accountId });
  } catch (error) {
    if (error instanceof SignInThrottled || !isAppError(error)) throw error;
    throw new AppError("unauthorized", SITE_SIGN_IN_FAILED);
  }
}
