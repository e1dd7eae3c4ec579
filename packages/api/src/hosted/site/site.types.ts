import { z } from "zod";

import { requestIdField } from "../../schemas/common";

/** The built-in site's JSON shapes (/site/api/…, site-api-routes.ts); not part of the public /v1 document. */

/** The password-setup link's token, from its fragment (other fields are ignored). */
export const passwordSetupCheckInput = z.object({ token: z.string().min(1).max(256) });
export const passwordSetupCheckOutput = z.strictObject({ request_id: requestIdField, usable: z.boolean() });

/** A real site's report of a completed login (other fields are ignored). */
export const siteLoginReportInput = z.object({ session_token: z.string(), site_account_id: z.string() });
/** 204: no body. */
export const siteLoginReportOutput = z.undefined();
