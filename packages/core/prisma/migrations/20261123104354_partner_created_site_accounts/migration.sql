-- AlterTable
ALTER TABLE "partner_users" ADD COLUMN     "site_sync_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "partner_created_site_accounts" (
    "site_account_id" TEXT NOT NULL,
    "locked_by_us" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_created_site_accounts_pkey" PRIMARY KEY ("site_account_id")
);


-- Accounts partners created so far: those their creator mappings still name, and, in the built-in
-- site-account system, every live account marked as partner-made (also those whose creator was
-- deleted while another partner's user was linked). We locked an account when its creator was
-- not active; the server's start reconciles every such lock with today's rule.
INSERT INTO "partner_created_site_accounts" ("site_account_id", "locked_by_us", "created_at")
SELECT u.site_account_id, bool_or(u.status <> 'active'), min(u.created_at)
FROM "partner_users" u
WHERE u.identity_origin = 'partner_created' AND u.site_account_id IS NOT NULL
GROUP BY u.site_account_id
ON CONFLICT DO NOTHING;
INSERT INTO "partner_created_site_accounts" ("site_account_id", "locked_by_us", "created_at")
SELECT a.id, a.locked, a.created_at FROM "site_accounts" a
WHERE a.origin = 'partner' AND a.deleted_at IS NULL
ON CONFLICT ("site_account_id") DO UPDATE SET "locked_by_us" = "partner_created_site_accounts"."locked_by_us" OR EXCLUDED."locked_by_us";
