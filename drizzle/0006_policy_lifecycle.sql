CREATE TABLE "policy_cancellations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"effective_date" date NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"refund_kobo" bigint NOT NULL,
	"fee_kobo" bigint NOT NULL,
	"basis" text NOT NULL,
	"explanation" text NOT NULL,
	"by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "policies_unpublished_vehicles_idx";--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cancelled_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "policy_cancellations" ADD CONSTRAINT "policy_cancellations_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_cancellations" ADD CONSTRAINT "policy_cancellations_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_cancellations_policy_idx" ON "policy_cancellations" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_cancellations_reference_idx" ON "policy_cancellations" USING btree ("partner_id","reference");--> statement-breakpoint
CREATE INDEX "policies_active_cover_end_idx" ON "policies" USING btree ("cover_end") WHERE "policies"."status" = 'a';--> statement-breakpoint
CREATE INDEX "policies_unpublished_vehicles_idx" ON "policies" USING btree ("status_at") WHERE "policies"."status" in ('a', 'c') and "policies"."registry_published_at" is null and "policies"."product_code" like 'vhcl-%';