CREATE TABLE "policies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"consumer_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"product_code" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"status_note" text,
	"route" text NOT NULL,
	"premium_kobo" bigint NOT NULL,
	"duration" text,
	"cover_start" timestamp with time zone NOT NULL,
	"cover_end" timestamp with time zone NOT NULL,
	"facts" jsonb NOT NULL,
	"printed" jsonb NOT NULL,
	"device_id" text,
	"policy_no" text,
	"certificate_token" text NOT NULL,
	"webhook_url" text,
	"underwrite_at" timestamp with time zone,
	"decided_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"status_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"policy_id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"balance_after_kobo" bigint NOT NULL,
	"reference" text,
	"policy_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"partner_id" uuid PRIMARY KEY NOT NULL,
	"balance_kobo" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_balance_not_negative" CHECK ("wallets"."balance_kobo" >= 0)
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"target_url" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_consumer_id_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policies_partner_reference_idx" ON "policies" USING btree ("partner_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "policies_policy_no_idx" ON "policies" USING btree ("policy_no");--> statement-breakpoint
CREATE UNIQUE INDEX "policies_certificate_token_idx" ON "policies" USING btree ("certificate_token");--> statement-breakpoint
CREATE INDEX "policies_partner_created_idx" ON "policies" USING btree ("partner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "policies_created_idx" ON "policies" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "policies_underwrite_idx" ON "policies" USING btree ("underwrite_at") WHERE "policies"."status" = 'p' and "policies"."underwrite_at" is not null;--> statement-breakpoint
CREATE INDEX "policies_pending_idx" ON "policies" USING btree ("created_at") WHERE "policies"."status" = 'p';--> statement-breakpoint
CREATE INDEX "policies_device_idx" ON "policies" USING btree ("device_id") WHERE "policies"."device_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_entries_topup_reference_idx" ON "wallet_entries" USING btree ("partner_id","reference") WHERE "wallet_entries"."kind" = 'topup';--> statement-breakpoint
CREATE INDEX "wallet_entries_partner_created_idx" ON "wallet_entries" USING btree ("partner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "outbox_events_partner_created_idx" ON "outbox_events" USING btree ("partner_id","created_at");