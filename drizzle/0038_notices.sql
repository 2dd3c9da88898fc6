CREATE TABLE "notice_senders" (
	"partner_id" uuid NOT NULL,
	"notice" text NOT NULL,
	"channel" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notice_senders_partner_id_notice_channel_pk" PRIMARY KEY("partner_id","notice","channel")
);
--> statement-breakpoint
CREATE TABLE "notice_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"notice" text NOT NULL,
	"form" text NOT NULL,
	"subject" text,
	"body" text,
	"effective_from" timestamp with time zone NOT NULL,
	"saved_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_branding" (
	"partner_id" uuid PRIMARY KEY NOT NULL,
	"display_name" text,
	"logo" "bytea",
	"logo_mime" text,
	"colour" text,
	"support_email" text,
	"support_phone" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consumers" ADD COLUMN "reminders_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consumers" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_events" ADD COLUMN "noticed_at" timestamp with time zone;--> statement-breakpoint
-- Events from before the notices were told to no one: they are not told now (added by hand to the generated migration).
UPDATE "outbox_events" SET "noticed_at" = "created_at";--> statement-breakpoint
ALTER TABLE "notice_senders" ADD CONSTRAINT "notice_senders_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_templates" ADD CONSTRAINT "notice_templates_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_branding" ADD CONSTRAINT "partner_branding_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notice_templates_current_idx" ON "notice_templates" USING btree ("partner_id","notice","form","effective_from" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "outbox_events_unnoticed_idx" ON "outbox_events" USING btree ("created_at") WHERE "outbox_events"."noticed_at" is null;