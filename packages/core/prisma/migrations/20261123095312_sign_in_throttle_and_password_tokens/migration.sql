-- AlterTable
ALTER TABLE "staff_accounts" DROP COLUMN "failed_attempts",
DROP COLUMN "locked_until";

-- CreateTable
CREATE TABLE "site_password_tokens" (
    "id" TEXT NOT NULL,
    "site_account_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "site_password_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_throttle" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "sign_in_throttle_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "site_password_tokens_token_hash_key" ON "site_password_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "site_password_tokens_site_account_id_idx" ON "site_password_tokens"("site_account_id");


-- Password-setup links issued before: their tokens move out of the outbox as hashes (the
-- SHA-256 hex of hashSecret), keeping their seven days; the outbox keeps no readable token.
INSERT INTO "site_password_tokens" ("id", "site_account_id", "token_hash", "created_at", "expires_at", "used_at")
SELECT 'spt_' || substr(md5(n.id), 1, 22), n.site_account_id, encode(sha256(convert_to(n.payload->>'token', 'UTF8')), 'hex'), n.created_at,
       n.created_at + interval '7 days', CASE WHEN n.payload ? 'used' THEN n.created_at END
FROM "notification_outbox" n
WHERE n.kind = 'password_setup' AND n.payload ? 'token';
UPDATE "notification_outbox" n SET payload = jsonb_build_object('token_id', 'spt_' || substr(md5(n.id), 1, 22))
WHERE n.kind = 'password_setup' AND n.payload ? 'token';
UPDATE "notification_outbox" SET payload = '{}'::jsonb WHERE kind = 'email_verification';
