-- AlterTable
ALTER TABLE "lifecycle_operations" ADD COLUMN     "authorized_by" TEXT;

-- CreateIndex
CREATE INDEX "partner_users_site_account_id_idx" ON "partner_users"("site_account_id");

-- Profile changes already confirmed at the new address, or applied as staff overrides, keep their authority.
UPDATE "lifecycle_operations" SET "authorized_by" = 'staff_override' WHERE "type" = 'profile_change' AND "note" LIKE 'override by %';
UPDATE "lifecycle_operations" o SET "authorized_by" = 'verification'
FROM "partner_users" u
WHERE u.id = o.partner_user_id AND o.type = 'profile_change' AND o.status IN ('queued', 'processing')
  AND o.verification_expires_at IS NOT NULL AND o.authorized_by IS NULL;
