-- Issue 37, item 2: assessment. The checklist, the reserve's history, the pause of the clock while
-- information is asked for, the assessor.
CREATE TABLE "claim_checks" (
	"claim_id" uuid NOT NULL,
	"item" text NOT NULL,
	"checked_by" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "claim_checks_claim_id_item_pk" PRIMARY KEY("claim_id","item")
);
--> statement-breakpoint
CREATE TABLE "claim_reserves" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"reason" text NOT NULL,
	"by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "paused_since" date;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "paused_until" date;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "paused_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "assessor" text;--> statement-breakpoint
-- Claims made before: the reserve is the amount claimed, as the bordereau counted it.
ALTER TABLE "claims" ADD COLUMN "reserve_kobo" bigint;--> statement-breakpoint
UPDATE "claims" SET "reserve_kobo" = "claimed_kobo";--> statement-breakpoint
ALTER TABLE "claims" ALTER COLUMN "reserve_kobo" SET NOT NULL;--> statement-breakpoint
INSERT INTO "claim_reserves" ("id", "claim_id", "amount_kobo", "reason", "by", "created_at")
  SELECT gen_random_uuid(), "id", "claimed_kobo", 'The amount claimed', 'partner', "created_at" FROM "claims";--> statement-breakpoint
ALTER TABLE "claims" DROP COLUMN "next_due_on";--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "next_due_on" date GENERATED ALWAYS AS (case when status in ('submitted', 'in_review', 'approved') then least(settlement_due_on, voucher_due_on)
        when status = 'info_requested' then settlement_due_on + (paused_until - paused_since) end) STORED;--> statement-breakpoint
CREATE INDEX "claims_next_due_idx" ON "claims" USING btree ("next_due_on","id") WHERE "claims"."next_due_on" is not null;--> statement-breakpoint
ALTER TABLE "claim_checks" ADD CONSTRAINT "claim_checks_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_reserves" ADD CONSTRAINT "claim_reserves_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_reserves_claim_idx" ON "claim_reserves" USING btree ("claim_id","created_at");
