import type { Database } from "@mga/core/db";

import type { HostedRoute } from "../hosted-route";
import { checkPasswordSetup } from "./check-password-setup";
import { reportSiteLogin } from "./report-site-login";

export interface SiteApiDeps {
  db: Database;
  /** Secret a real site uses to report completed logins. */
  callbackSecret?: string | undefined;
}

/** The built-in site's JSON routes (its pages are the host's); none is part of the public /v1 document. */
export function siteApiRoutes(deps: SiteApiDeps): HostedRoute[] {
  return [reportSiteLogin(deps.db, deps.callbackSecret), checkPasswordSetup(deps.db)];
}
