-- Issue 37, items 3 to 5: authority over claims (recommendations a second administrator confirms,
-- the administrators' authority), rejection letters, the account a claim is paid into, discharge
-- vouchers (the voucher clock stops at the first), payouts with their callbacks and the insurer's
-- payout ledger.
CREATE TABLE "claim_decisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"approved_kobo" bigint,
	"rejection_reason" text,
	"note" text,
	"amount_kobo" bigint NOT NULL,
	"grounds" jsonb NOT NULL,
	"status" text NOT NULL,
	"recommended_by" text NOT NULL,
	"recommended_by_user" uuid,
	"decided_by" text,
	"decided_by_user" uuid,
	"decision_note" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "claim_letters" (
	"claim_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "claim_letters_claim_id_kind_pk" PRIMARY KEY("claim_id","kind")
);
--> statement-breakpoint
CREATE TABLE "claim_payouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"voucher_version" integer NOT NULL,
	"reference" text NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"mode" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"payable_kobo" bigint NOT NULL,
	"late_interest_kobo" bigint NOT NULL,
	"bank_code" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"queued_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claim_vouchers" (
	"claim_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"approved_kobo" bigint NOT NULL,
	"excess_kobo" bigint NOT NULL,
	"payable_kobo" bigint NOT NULL,
	"bank_code" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"content" "bytea" NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_channel" text,
	"accepted_by" text,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "claim_vouchers_claim_id_version_pk" PRIMARY KEY("claim_id","version")
);
--> statement-breakpoint
CREATE TABLE "payout_callbacks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"reference" text,
	"event" text,
	"signature_valid" text NOT NULL,
	"outcome" text NOT NULL,
	"body" "bytea" NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_ledger" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"claim_id" uuid NOT NULL,
	"payout_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "payee_bank_code" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "payee_account_number" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "payee_account_name" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "payee_name_check" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "payee_confirmed_by" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "voucher_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" drop column "next_due_on";--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "next_due_on" date GENERATED ALWAYS AS (case when status in ('submitted', 'in_review', 'approved')
          then least(settlement_due_on, case when voucher_issued_at is null then voucher_due_on end)
        when status = 'info_requested' then settlement_due_on + (paused_until - paused_since) end) STORED;--> statement-breakpoint
-- Dropping the column dropped its index: made again as it was (drizzle sees no change to it).
CREATE INDEX "claims_next_due_idx" ON "claims" USING btree ("next_due_on","id") WHERE "claims"."next_due_on" is not null;--> statement-breakpoint
ALTER TABLE "portal_users" ADD COLUMN "claim_authority" text;--> statement-breakpoint
-- The administrators there were decided every claim alone: they keep that, as heads of claims.
UPDATE "portal_users" SET "claim_authority" = 'head' WHERE "role" = 'admin';--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_letters" ADD CONSTRAINT "claim_letters_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_payouts" ADD CONSTRAINT "claim_payouts_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_vouchers" ADD CONSTRAINT "claim_vouchers_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_ledger" ADD CONSTRAINT "payout_ledger_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_ledger" ADD CONSTRAINT "payout_ledger_payout_id_claim_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."claim_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_decisions_claim_idx" ON "claim_decisions" USING btree ("claim_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_decisions_awaiting_idx" ON "claim_decisions" USING btree ("claim_id") WHERE "claim_decisions"."status" = 'awaiting';--> statement-breakpoint
CREATE UNIQUE INDEX "claim_payouts_reference_idx" ON "claim_payouts" USING btree ("provider","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_payouts_live_idx" ON "claim_payouts" USING btree ("claim_id") WHERE "claim_payouts"."status" in ('queued', 'pending', 'success');--> statement-breakpoint
CREATE INDEX "claim_payouts_claim_idx" ON "claim_payouts" USING btree ("claim_id","created_at");--> statement-breakpoint
CREATE INDEX "claim_payouts_open_idx" ON "claim_payouts" USING btree ("status","updated_at") WHERE "claim_payouts"."status" in ('queued', 'pending');--> statement-breakpoint
CREATE INDEX "claim_payouts_created_idx" ON "claim_payouts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payout_callbacks_received_idx" ON "payout_callbacks" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_ledger_payout_kind_idx" ON "payout_ledger" USING btree ("payout_id","kind");--> statement-breakpoint
CREATE INDEX "payout_ledger_mode_created_idx" ON "payout_ledger" USING btree ("mode","created_at");