CREATE TABLE "policy_daily_totals" (
	"partner_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"day" date NOT NULL,
	"product_code" text NOT NULL,
	"status" text NOT NULL,
	"policies" integer NOT NULL,
	"premium_kobo" bigint NOT NULL,
	CONSTRAINT "policy_daily_totals_partner_id_mode_day_product_code_status_pk" PRIMARY KEY("partner_id","mode","day","product_code","status")
);
--> statement-breakpoint
CREATE INDEX "policy_daily_totals_mode_day_idx" ON "policy_daily_totals" USING btree ("mode","day");--> statement-breakpoint
-- Written by hand: triggers that keep policy_daily_totals in the statement that changes policies
-- (src/modules/dashboard/schema.ts). Statement-level, over the transition tables: a statement that
-- writes many policies (a bulk insert, the expiry job) adds one line per day, product and status,
-- in key order, instead of updating the same totals row once per policy. The day is the WAT day
-- (UTC+1 all year) of created_at.
CREATE FUNCTION "policy_daily_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
		SELECT "partner_id", "mode", (("created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, "product_code", "status", count(*), sum("premium_kobo")
		FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
		ON CONFLICT ("partner_id", "mode", "day", "product_code", "status")
		DO UPDATE SET "policies" = "policy_daily_totals"."policies" + EXCLUDED."policies", "premium_kobo" = "policy_daily_totals"."premium_kobo" + EXCLUDED."premium_kobo";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
		SELECT "partner_id", "mode", (("created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, "product_code", "status", -count(*), -sum("premium_kobo")
		FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
		ON CONFLICT ("partner_id", "mode", "day", "product_code", "status")
		DO UPDATE SET "policies" = "policy_daily_totals"."policies" + EXCLUDED."policies", "premium_kobo" = "policy_daily_totals"."premium_kobo" + EXCLUDED."premium_kobo";
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
		GROUP BY 1, 2, 3, 4, 5 HAVING sum("policies") <> 0 OR sum("premium_kobo") <> 0 ORDER BY 1, 2, 3, 4, 5
		ON CONFLICT ("partner_id", "mode", "day", "product_code", "status")
		DO UPDATE SET "policies" = "policy_daily_totals"."policies" + EXCLUDED."policies", "premium_kobo" = "policy_daily_totals"."premium_kobo" + EXCLUDED."premium_kobo";
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "policies_daily_totals_insert" AFTER INSERT ON "policies" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "policy_daily_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "policies_daily_totals_update" AFTER UPDATE ON "policies" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "policy_daily_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "policies_daily_totals_delete" AFTER DELETE ON "policies" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "policy_daily_totals_apply"();
--> statement-breakpoint
INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
SELECT "partner_id", "mode", (("created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, "product_code", "status", count(*), sum("premium_kobo")
FROM "policies" GROUP BY 1, 2, 3, 4, 5;
