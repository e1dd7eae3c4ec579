-- DropIndex
DROP INDEX "partner_users_integration_id_status_id_idx";

-- DropIndex
DROP INDEX "partner_users_team_id_idx";

-- CreateTable
CREATE TABLE "partner_user_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "integration_id" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "active" INTEGER NOT NULL,
    "disabled" INTEGER NOT NULL,
    "deleted" INTEGER NOT NULL,
    "pending" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,

    CONSTRAINT "partner_user_count_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "partner_user_count_deltas_integration_id_idx" ON "partner_user_count_deltas"("integration_id");

-- CreateIndex
CREATE INDEX "partner_users_integration_id_created_at_id_idx" ON "partner_users"("integration_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "partner_users_integration_id_status_created_at_id_idx" ON "partner_users"("integration_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "partner_users_team_id_created_at_id_idx" ON "partner_users"("team_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "partner_user_count_deltas" ADD CONSTRAINT "partner_user_count_deltas_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand from here (Prisma knows neither partial nor trigram indexes, nor triggers);
-- see "Directory at scale" in docs/architecture.md.

-- The users list's `unassigned=true` filter, in page order.
CREATE INDEX "partner_users_unassigned_idx" ON "partner_users"("integration_id", "created_at", "id") WHERE "team_id" IS NULL;

-- The users list's `q` (part of an external user id, any case): trigram search of the lowered id.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "partner_users_external_user_id_trgm_idx" ON "partner_users" USING gin (lower("external_user_id") gin_trgm_ops);

-- The users list's `counts`: every statement that inserts, deletes or updates partner users
-- appends its net change per integration (statement-level, so an import's batch appends one
-- row). Appending never waits on another writer; the sum is exact because each change commits
-- or rolls back with the statement that made it. An integration being deleted (its users go
-- by cascade) gets nothing appended.
CREATE FUNCTION "partner_user_count_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch reads only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "partner_user_count_deltas" ("integration_id", "total", "active", "disabled", "deleted", "pending", "failed")
    SELECT c.integration_id,
           sum(c.sign * (c.status <> 'deleted')::int), sum(c.sign * (c.status = 'active')::int),
           sum(c.sign * (c.status = 'disabled')::int), sum(c.sign * (c.status = 'deleted')::int),
           sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int),
           sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int)
    FROM (SELECT integration_id, status, provisioning_status, 1 AS sign FROM new_rows) c
    WHERE EXISTS (SELECT 1 FROM "integrations" i WHERE i.id = c.integration_id)
    GROUP BY c.integration_id
    HAVING sum(c.sign * (c.status <> 'deleted')::int) <> 0 OR sum(c.sign * (c.status = 'active')::int) <> 0
      OR sum(c.sign * (c.status = 'disabled')::int) <> 0 OR sum(c.sign * (c.status = 'deleted')::int) <> 0
      OR sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int) <> 0
      OR sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "partner_user_count_deltas" ("integration_id", "total", "active", "disabled", "deleted", "pending", "failed")
    SELECT c.integration_id,
           sum(c.sign * (c.status <> 'deleted')::int), sum(c.sign * (c.status = 'active')::int),
           sum(c.sign * (c.status = 'disabled')::int), sum(c.sign * (c.status = 'deleted')::int),
           sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int),
           sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int)
    FROM (SELECT integration_id, status, provisioning_status, -1 AS sign FROM old_rows) c
    WHERE EXISTS (SELECT 1 FROM "integrations" i WHERE i.id = c.integration_id)
    GROUP BY c.integration_id
    HAVING sum(c.sign * (c.status <> 'deleted')::int) <> 0 OR sum(c.sign * (c.status = 'active')::int) <> 0
      OR sum(c.sign * (c.status = 'disabled')::int) <> 0 OR sum(c.sign * (c.status = 'deleted')::int) <> 0
      OR sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int) <> 0
      OR sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int) <> 0;
  ELSE
    INSERT INTO "partner_user_count_deltas" ("integration_id", "total", "active", "disabled", "deleted", "pending", "failed")
    SELECT c.integration_id,
           sum(c.sign * (c.status <> 'deleted')::int), sum(c.sign * (c.status = 'active')::int),
           sum(c.sign * (c.status = 'disabled')::int), sum(c.sign * (c.status = 'deleted')::int),
           sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int),
           sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int)
    FROM (SELECT integration_id, status, provisioning_status, 1 AS sign FROM new_rows UNION ALL SELECT integration_id, status, provisioning_status, -1 AS sign FROM old_rows) c
    WHERE EXISTS (SELECT 1 FROM "integrations" i WHERE i.id = c.integration_id)
    GROUP BY c.integration_id
    HAVING sum(c.sign * (c.status <> 'deleted')::int) <> 0 OR sum(c.sign * (c.status = 'active')::int) <> 0
      OR sum(c.sign * (c.status = 'disabled')::int) <> 0 OR sum(c.sign * (c.status = 'deleted')::int) <> 0
      OR sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int) <> 0
      OR sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "partner_users_count_inserted" AFTER INSERT ON "partner_users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_user_count_changes"();
CREATE TRIGGER "partner_users_count_deleted" AFTER DELETE ON "partner_users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_user_count_changes"();
CREATE TRIGGER "partner_users_count_updated" AFTER UPDATE ON "partner_users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_user_count_changes"();

-- The counts of the users already there.
INSERT INTO "partner_user_count_deltas" ("integration_id", "total", "active", "disabled", "deleted", "pending", "failed")
SELECT "integration_id",
       count(*) FILTER (WHERE "status" <> 'deleted'), count(*) FILTER (WHERE "status" = 'active'),
       count(*) FILTER (WHERE "status" = 'disabled'), count(*) FILTER (WHERE "status" = 'deleted'),
       count(*) FILTER (WHERE "status" <> 'deleted' AND "provisioning_status" = 'pending'),
       count(*) FILTER (WHERE "status" <> 'deleted' AND "provisioning_status" = 'failed')
FROM "partner_users" GROUP BY "integration_id";
