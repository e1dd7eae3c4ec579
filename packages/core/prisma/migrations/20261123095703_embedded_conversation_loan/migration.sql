-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "external_loan_id" TEXT;


-- Embedded conversations started before: their loan is the one their launch recorded.
UPDATE "conversations" SET "external_loan_id" = "metadata"->'loan_context'->>'external_loan_id'
WHERE "partner_user_id" IS NOT NULL AND "external_loan_id" IS NULL;
