CREATE TABLE "public_holidays" (
	"day" date PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"added_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claim_clock_alerts" (
	"claim_id" uuid NOT NULL,
	"deadline" text NOT NULL,
	"alert" text NOT NULL,
	"due_on" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "claim_clock_alerts_claim_id_deadline_alert_pk" PRIMARY KEY("claim_id","deadline","alert")
);
--> statement-breakpoint
-- Claims notified before the clock existed: 60 days from their Nigerian submission day (the shipped setting).
ALTER TABLE "claims" ADD COLUMN "settlement_due_on" date;--> statement-breakpoint
UPDATE "claims" SET "settlement_due_on" = (("created_at" + interval '1 hour') at time zone 'UTC')::date + 60;--> statement-breakpoint
ALTER TABLE "claims" ALTER COLUMN "settlement_due_on" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "voucher_due_on" date;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "next_due_on" date GENERATED ALWAYS AS (case when status in ('submitted', 'in_review', 'approved') then least(settlement_due_on, voucher_due_on) end) STORED;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "late_interest_kobo" bigint;--> statement-breakpoint
UPDATE "claims" SET "settled_at" = "updated_at" WHERE "status" = 'paid';--> statement-breakpoint
ALTER TABLE "claim_clock_alerts" ADD CONSTRAINT "claim_clock_alerts_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claims_next_due_idx" ON "claims" USING btree ("next_due_on","id") WHERE "claims"."next_due_on" is not null;--> statement-breakpoint
-- Nigeria's federal public holidays, 2025 to 2027, as declared or (the Islamic ones, and the Mondays
-- after a weekend holiday) as expected: the operator corrects them on the Public holidays page.
INSERT INTO "public_holidays" ("day", "name", "added_by", "created_at") VALUES
  ('2025-01-01', 'New Year''s Day', 'shipped', now()),
  ('2025-03-31', 'Eid-el-Fitr', 'shipped', now()),
  ('2025-04-01', 'Eid-el-Fitr holiday', 'shipped', now()),
  ('2025-04-18', 'Good Friday', 'shipped', now()),
  ('2025-04-21', 'Easter Monday', 'shipped', now()),
  ('2025-05-01', 'Workers'' Day', 'shipped', now()),
  ('2025-06-06', 'Eid-el-Kabir', 'shipped', now()),
  ('2025-06-09', 'Eid-el-Kabir holiday', 'shipped', now()),
  ('2025-06-12', 'Democracy Day', 'shipped', now()),
  ('2025-09-05', 'Eid-el-Maulud', 'shipped', now()),
  ('2025-10-01', 'Independence Day', 'shipped', now()),
  ('2025-12-25', 'Christmas Day', 'shipped', now()),
  ('2025-12-26', 'Boxing Day', 'shipped', now()),
  ('2026-01-01', 'New Year''s Day', 'shipped', now()),
  ('2026-03-20', 'Eid-el-Fitr', 'shipped', now()),
  ('2026-03-23', 'Eid-el-Fitr holiday', 'shipped', now()),
  ('2026-04-03', 'Good Friday', 'shipped', now()),
  ('2026-04-06', 'Easter Monday', 'shipped', now()),
  ('2026-05-01', 'Workers'' Day', 'shipped', now()),
  ('2026-05-27', 'Eid-el-Kabir', 'shipped', now()),
  ('2026-05-28', 'Eid-el-Kabir holiday', 'shipped', now()),
  ('2026-06-12', 'Democracy Day', 'shipped', now()),
  ('2026-08-26', 'Eid-el-Maulud', 'shipped', now()),
  ('2026-10-01', 'Independence Day', 'shipped', now()),
  ('2026-12-25', 'Christmas Day', 'shipped', now()),
  ('2026-12-28', 'Boxing Day holiday', 'shipped', now()),
  ('2027-01-01', 'New Year''s Day', 'shipped', now()),
  ('2027-03-10', 'Eid-el-Fitr', 'shipped', now()),
  ('2027-03-11', 'Eid-el-Fitr holiday', 'shipped', now()),
  ('2027-03-26', 'Good Friday', 'shipped', now()),
  ('2027-03-29', 'Easter Monday', 'shipped', now()),
  ('2027-05-03', 'Workers'' Day holiday', 'shipped', now()),
  ('2027-05-17', 'Eid-el-Kabir', 'shipped', now()),
  ('2027-05-18', 'Eid-el-Kabir holiday', 'shipped', now()),
  ('2027-06-14', 'Democracy Day holiday', 'shipped', now()),
  ('2027-08-16', 'Eid-el-Maulud holiday', 'shipped', now()),
  ('2027-10-01', 'Independence Day', 'shipped', now()),
  ('2027-12-27', 'Christmas Day holiday', 'shipped', now()),
  ('2027-12-28', 'Boxing Day holiday', 'shipped', now());