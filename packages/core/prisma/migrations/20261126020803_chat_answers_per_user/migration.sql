-- AlterTable
ALTER TABLE "integrations" ADD COLUMN     "chat_answers_per_user_per_minute" INTEGER;

-- CreateTable
CREATE TABLE "partner_user_rate_limit_counters" (
    "partner_user_id" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "partner_user_rate_limit_counters_pkey" PRIMARY KEY ("partner_user_id","window_start")
);

