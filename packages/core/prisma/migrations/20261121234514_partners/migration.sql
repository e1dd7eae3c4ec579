-- CreateTable
CREATE TABLE "integrations" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integration_aliases" (
    "id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "granted_key_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integration_aliases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_teams" (
    "id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "external_team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_users" (
    "id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "external_user_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "team_id" TEXT,
    "assignment_version" INTEGER NOT NULL DEFAULT 1,
    "identity_origin" TEXT,
    "experience_type" TEXT NOT NULL DEFAULT 'white_label',
    "mapping_status" TEXT NOT NULL DEFAULT 'pending',
    "status" TEXT NOT NULL DEFAULT 'active',
    "provisioning_status" TEXT NOT NULL DEFAULT 'pending',
    "site_account_id" TEXT,
    "chat_identity_id" TEXT,
    "access_version" INTEGER NOT NULL DEFAULT 1,
    "account_generation" INTEGER NOT NULL DEFAULT 1,
    "profile_version" INTEGER NOT NULL DEFAULT 1,
    "profile_sync_status" TEXT NOT NULL DEFAULT 'applied',
    "wordpress_sync_status" TEXT NOT NULL DEFAULT 'applied',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "site_accounts" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'self',
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "site_sessions" (
    "id" TEXT NOT NULL,
    "site_account_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "site_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_outbox" (
    "id" TEXT NOT NULL,
    "site_account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_identities" (
    "id" TEXT NOT NULL,
    "partner_user_id" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_identities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "integrations_organization_id_slug_key" ON "integrations"("organization_id", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "integration_aliases_organization_id_slug_key" ON "integration_aliases"("organization_id", "slug");

-- CreateIndex
CREATE INDEX "partner_teams_integration_id_status_id_idx" ON "partner_teams"("integration_id", "status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "partner_teams_integration_id_external_team_id_key" ON "partner_teams"("integration_id", "external_team_id");

-- CreateIndex
CREATE INDEX "partner_users_integration_id_status_id_idx" ON "partner_users"("integration_id", "status", "id");

-- CreateIndex
CREATE INDEX "partner_users_team_id_idx" ON "partner_users"("team_id");

-- CreateIndex
CREATE UNIQUE INDEX "partner_users_integration_id_external_user_id_key" ON "partner_users"("integration_id", "external_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "site_accounts_email_key" ON "site_accounts"("email");

-- CreateIndex
CREATE INDEX "site_sessions_site_account_id_idx" ON "site_sessions"("site_account_id");

-- CreateIndex
CREATE INDEX "notification_outbox_site_account_id_idx" ON "notification_outbox"("site_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "chat_identities_partner_user_id_generation_key" ON "chat_identities"("partner_user_id", "generation");

-- AddForeignKey
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "integration_aliases" ADD CONSTRAINT "integration_aliases_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_teams" ADD CONSTRAINT "partner_teams_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "partner_teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

