/** `partner`: created by a partner's provisioning; `self`: a pre-existing account of the hosted product. */
export const SITE_ACCOUNT_ORIGINS = ["self", "partner"] as const;
export type SiteAccountOrigin = (typeof SITE_ACCOUNT_ORIGINS)[number];

/** What the local site-account system's outbox holds: password-setup links and email-verification links. */
export const NOTIFICATION_KINDS = ["password_setup", "email_verification"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
