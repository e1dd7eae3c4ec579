-- CreateTable
CREATE TABLE "launch_bindings" (
    "api_key_id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "public_name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "launch_bindings_pkey" PRIMARY KEY ("api_key_id")
);

-- CreateTable
CREATE TABLE "launches" (
    "id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "partner_user_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "access_version" INTEGER NOT NULL,
    "account_generation" INTEGER NOT NULL,
    "loan_context" JSONB NOT NULL,
    "attribution" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "launches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "launches_code_hash_key" ON "launches"("code_hash");

-- CreateIndex
CREATE INDEX "launches_partner_user_id_idx" ON "launches"("partner_user_id");

