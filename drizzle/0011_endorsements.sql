CREATE TABLE "policy_endorsements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"status" text NOT NULL,
	"status_note" text,
	"requested" jsonb NOT NULL,
	"changes" jsonb NOT NULL,
	"facts" jsonb NOT NULL,
	"printed" jsonb NOT NULL,
	"cover_start" timestamp with time zone NOT NULL,
	"cover_end" timestamp with time zone NOT NULL,
	"device_id" text,
	"premium_change_kobo" bigint NOT NULL,
	"explanation" text NOT NULL,
	"version" integer,
	"by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text
);
--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_endorsements" ADD CONSTRAINT "policy_endorsements_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_endorsements" ADD CONSTRAINT "policy_endorsements_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_endorsements_reference_idx" ON "policy_endorsements" USING btree ("partner_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_endorsements_pending_idx" ON "policy_endorsements" USING btree ("policy_id") WHERE "policy_endorsements"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "policy_endorsements_version_idx" ON "policy_endorsements" USING btree ("policy_id","version");