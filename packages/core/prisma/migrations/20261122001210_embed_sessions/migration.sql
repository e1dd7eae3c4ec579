-- CreateTable
CREATE TABLE "embed_sessions" (
    "id" TEXT NOT NULL,
    "launch_id" TEXT NOT NULL,
    "partner_user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "grant_id" TEXT,
    "chat_token_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "embed_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_grants" (
    "id" TEXT NOT NULL,
    "partner_user_id" TEXT NOT NULL,
    "access_version" INTEGER NOT NULL,
    "account_generation" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "chat_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_tokens" (
    "id" TEXT NOT NULL,
    "grant_id" TEXT NOT NULL,
    "launch_id" TEXT NOT NULL,
    "partner_user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chat_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "embed_sessions_launch_id_key" ON "embed_sessions"("launch_id");

-- CreateIndex
CREATE UNIQUE INDEX "embed_sessions_token_hash_key" ON "embed_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "chat_grants_partner_user_id_expires_at_idx" ON "chat_grants"("partner_user_id", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "chat_tokens_token_hash_key" ON "chat_tokens"("token_hash");

