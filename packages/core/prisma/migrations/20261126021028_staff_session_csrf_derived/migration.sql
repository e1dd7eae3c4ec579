-- The CSRF token of a staff session is now derived from the session's token and no longer
-- stored. Open sessions are signed out first: the console holds their old random CSRF token,
-- which would no longer match, so their mutations would fail while their pages still load.
UPDATE "staff_sessions" SET "revoked_at" = now() WHERE "revoked_at" IS NULL;

-- AlterTable
ALTER TABLE "staff_sessions" DROP COLUMN "csrf_token";
