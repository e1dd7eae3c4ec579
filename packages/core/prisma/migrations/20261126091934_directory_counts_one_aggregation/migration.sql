-- Written by hand (Prisma knows no triggers): the users list's counts trigger of
-- 20261123165656_directory_at_scale, with its aggregation written once instead of once per
-- event. Same behaviour: each statement appends its net change per integration, nothing for an
-- integration being deleted, no row when nothing changed.
--
-- A statement's trigger sees only the transition tables of its event (an INSERT has no
-- old_rows), so a static query naming both cannot be planned for all three: the event picks
-- the signed rows (+1 as they are now, -1 as they were) and the one aggregation runs on them.
CREATE OR REPLACE FUNCTION "partner_user_count_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT integration_id, status, provisioning_status, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT integration_id, status, provisioning_status, -1 AS sign FROM old_rows'
    ELSE 'SELECT integration_id, status, provisioning_status, 1 AS sign FROM new_rows
          UNION ALL SELECT integration_id, status, provisioning_status, -1 AS sign FROM old_rows'
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO "partner_user_count_deltas" ("integration_id", "total", "active", "disabled", "deleted", "pending", "failed")
    SELECT * FROM (
      SELECT c.integration_id,
             sum(c.sign * (c.status <> 'deleted')::int) AS total, sum(c.sign * (c.status = 'active')::int) AS active,
             sum(c.sign * (c.status = 'disabled')::int) AS disabled, sum(c.sign * (c.status = 'deleted')::int) AS deleted,
             sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'pending')::int) AS pending,
             sum(c.sign * (c.status <> 'deleted' AND c.provisioning_status = 'failed')::int) AS failed
      FROM (%s) c
      WHERE EXISTS (SELECT 1 FROM "integrations" i WHERE i.id = c.integration_id)
      GROUP BY c.integration_id
    ) d
    WHERE (d.total, d.active, d.disabled, d.deleted, d.pending, d.failed) <> (0, 0, 0, 0, 0, 0)
  $sql$, changed);
  RETURN NULL;
END $$;
