-- AlterTable
ALTER TABLE "import_job_rows" ADD COLUMN     "team_given" BOOLEAN NOT NULL DEFAULT false;

