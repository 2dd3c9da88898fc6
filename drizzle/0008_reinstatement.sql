CREATE TABLE "policy_reinstatements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"cancellation_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"owed_kobo" bigint NOT NULL,
	"gap_from" timestamp with time zone,
	"gap_to" timestamp with time zone,
	"by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "policy_cancellations_policy_idx";--> statement-breakpoint
ALTER TABLE "policy_cancellations" ADD COLUMN "reinstated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cover_gaps" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_reinstatements" ADD CONSTRAINT "policy_reinstatements_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_reinstatements" ADD CONSTRAINT "policy_reinstatements_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_reinstatements" ADD CONSTRAINT "policy_reinstatements_cancellation_id_policy_cancellations_id_fk" FOREIGN KEY ("cancellation_id") REFERENCES "public"."policy_cancellations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_reinstatements_reference_idx" ON "policy_reinstatements" USING btree ("partner_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_reinstatements_cancellation_idx" ON "policy_reinstatements" USING btree ("cancellation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_cancellations_policy_idx" ON "policy_cancellations" USING btree ("policy_id") WHERE "policy_cancellations"."reinstated_at" is null;