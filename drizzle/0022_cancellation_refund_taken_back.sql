ALTER TABLE "policy_cancellations" ADD COLUMN "refund_taken_back_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_cancellations" ADD COLUMN "refund_taken_back_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "policy_cancellations" ADD COLUMN "refund_taken_back_claim_id" uuid;--> statement-breakpoint
ALTER TABLE "policy_cancellations" ADD CONSTRAINT "policy_cancellations_refund_taken_back_claim_id_claims_id_fk" FOREIGN KEY ("refund_taken_back_claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;