ALTER TABLE "policy_daily_totals" DROP CONSTRAINT "policy_daily_totals_partner_id_mode_day_product_code_status_pk";--> statement-breakpoint
ALTER TABLE "policy_daily_totals" ADD COLUMN "folded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "policy_daily_totals_key_idx" ON "policy_daily_totals" USING btree ("partner_id","mode","day","product_code","status");--> statement-breakpoint
CREATE INDEX "policy_daily_totals_unfolded_idx" ON "policy_daily_totals" USING btree ("partner_id","mode","day","product_code","status") WHERE not "policy_daily_totals"."folded";--> statement-breakpoint
-- Written by hand: the triggers of 0014 now only add lines (no ON CONFLICT): a writer of policies
-- never waits on, nor locks, a totals row another writer holds, so concurrent issuances, decisions
-- and cancellations of one partner neither queue here nor deadlock in a different order. Readers
-- sum the lines; the dashboard's compaction job folds each key's lines into one (folded).
CREATE OR REPLACE FUNCTION "policy_daily_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
		SELECT "partner_id", "mode", (("created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, "product_code", "status", count(*), sum("premium_kobo")
		FROM new_rows GROUP BY 1, 2, 3, 4, 5;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
		SELECT "partner_id", "mode", (("created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, "product_code", "status", -count(*), -sum("premium_kobo")
		FROM old_rows GROUP BY 1, 2, 3, 4, 5;
	ELSE
		-- Only policies whose counted columns changed (most updates, such as registry publication, change none).
		INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
		SELECT "partner_id", "mode", "day", "product_code", "status", sum("policies"), sum("premium_kobo")
		FROM (
			SELECT o."partner_id", o."mode", ((o."created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date AS "day", o."product_code", o."status", -1 AS "policies", -o."premium_kobo" AS "premium_kobo"
			FROM old_rows o JOIN new_rows n ON n."id" = o."id"
			WHERE (o."partner_id", o."mode", o."created_at", o."product_code", o."status", o."premium_kobo")
				IS DISTINCT FROM (n."partner_id", n."mode", n."created_at", n."product_code", n."status", n."premium_kobo")
			UNION ALL
			SELECT n."partner_id", n."mode", ((n."created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, n."product_code", n."status", 1, n."premium_kobo"
			FROM old_rows o JOIN new_rows n ON n."id" = o."id"
			WHERE (o."partner_id", o."mode", o."created_at", o."product_code", o."status", o."premium_kobo")
				IS DISTINCT FROM (n."partner_id", n."mode", n."created_at", n."product_code", n."status", n."premium_kobo")
		) AS "moved"
		GROUP BY 1, 2, 3, 4, 5 HAVING sum("policies") <> 0 OR sum("premium_kobo") <> 0;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- The lines so far are one per key (0014 kept them so): folded.
UPDATE "policy_daily_totals" SET "folded" = true;
