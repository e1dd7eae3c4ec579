-- AlterTable
ALTER TABLE "integrations" ADD COLUMN     "access_version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "launch_bindings" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
-- Launches issued before were issued under the versions every binding and integration starts
-- at (0); the defaults only fill them and go, so no insert can leave a snapshot out.
ALTER TABLE "launches" ADD COLUMN     "binding_version" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "integration_access_version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "launches" ALTER COLUMN "binding_version" DROP DEFAULT,
ALTER COLUMN "integration_access_version" DROP DEFAULT;

-- AlterTable
ALTER TABLE "chat_grants" ADD COLUMN     "api_key_id" TEXT,
ADD COLUMN     "binding_version" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "integration_access_version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "chat_grants" ALTER COLUMN "binding_version" DROP DEFAULT,
ALTER COLUMN "integration_access_version" DROP DEFAULT;

-- Grants issued before: their key is the one of the launch whose session's login created them
-- (the first session holding the grant; later ones reused it). A grant is written with that
-- session in one transaction, so every grant has one; one without could not be traced to a key
-- and is dropped rather than reused through any key.
UPDATE "chat_grants" g SET "api_key_id" = first."api_key_id"
FROM (SELECT DISTINCT ON (s."grant_id") s."grant_id", l."api_key_id"
      FROM "embed_sessions" s JOIN "launches" l ON l."id" = s."launch_id"
      WHERE s."grant_id" IS NOT NULL
      ORDER BY s."grant_id", s."created_at") first
WHERE first."grant_id" = g."id";
DELETE FROM "chat_grants" WHERE "api_key_id" IS NULL;
ALTER TABLE "chat_grants" ALTER COLUMN "api_key_id" SET NOT NULL;
