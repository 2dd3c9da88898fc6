-- Written by hand: a policy's change moves its totals with a row-level trigger whose WHEN skips the
-- updates that change no counted column (registry publication, reminders, most of the lifecycle's),
-- so they no longer build transition tables at all; a decision or cancellation adds two plain lines
-- (its old key taken away, its new key added), which compaction folds (issue 18).
DROP TRIGGER "policies_daily_totals_update" ON "policies";
--> statement-breakpoint
CREATE FUNCTION "policy_daily_totals_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "policy_daily_totals" ("partner_id", "mode", "day", "product_code", "status", "policies", "premium_kobo")
	VALUES
		(OLD."partner_id", OLD."mode", ((OLD."created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, OLD."product_code", OLD."status", -1, -OLD."premium_kobo"),
		(NEW."partner_id", NEW."mode", ((NEW."created_at" AT TIME ZONE 'UTC') + interval '1 hour')::date, NEW."product_code", NEW."status", 1, NEW."premium_kobo");
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "policies_daily_totals_update" AFTER UPDATE ON "policies" FOR EACH ROW
	WHEN ((OLD."partner_id", OLD."mode", OLD."created_at", OLD."product_code", OLD."status", OLD."premium_kobo")
		IS DISTINCT FROM (NEW."partner_id", NEW."mode", NEW."created_at", NEW."product_code", NEW."status", NEW."premium_kobo"))
	EXECUTE FUNCTION "policy_daily_totals_move"();
