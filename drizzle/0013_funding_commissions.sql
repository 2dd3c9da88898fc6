CREATE TABLE "commission_rates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"product_code" text NOT NULL,
	"partner_id" uuid,
	"rate_basis_points" integer NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "commission_rates_rate_range" CHECK ("commission_rates"."rate_basis_points" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "funding_callbacks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"event" text,
	"signature_valid" text NOT NULL,
	"outcome" text NOT NULL,
	"body" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funding_confirmations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"funding_id" uuid NOT NULL,
	"bank_reference" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"status" text NOT NULL,
	"requested_by" uuid NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wallet_fundings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text NOT NULL,
	"instruction" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"received_kobo" bigint,
	"status_note" text,
	"wallet_entry_id" uuid,
	"settled_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "commission_rates" ADD CONSTRAINT "commission_rates_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_rates" ADD CONSTRAINT "commission_rates_updated_by_portal_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_confirmations" ADD CONSTRAINT "funding_confirmations_funding_id_wallet_fundings_id_fk" FOREIGN KEY ("funding_id") REFERENCES "public"."wallet_fundings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_confirmations" ADD CONSTRAINT "funding_confirmations_requested_by_portal_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_confirmations" ADD CONSTRAINT "funding_confirmations_decided_by_portal_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_fundings" ADD CONSTRAINT "wallet_fundings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_fundings" ADD CONSTRAINT "wallet_fundings_wallet_entry_id_wallet_entries_id_fk" FOREIGN KEY ("wallet_entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commission_rates_product_idx" ON "commission_rates" USING btree ("product_code") WHERE "commission_rates"."partner_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "commission_rates_product_partner_idx" ON "commission_rates" USING btree ("product_code","partner_id") WHERE "commission_rates"."partner_id" is not null;--> statement-breakpoint
CREATE INDEX "funding_callbacks_reference_idx" ON "funding_callbacks" USING btree ("provider","provider_reference","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "funding_confirmations_open_idx" ON "funding_confirmations" USING btree ("funding_id") WHERE "funding_confirmations"."status" = 'awaiting_approval';--> statement-breakpoint
CREATE UNIQUE INDEX "funding_confirmations_bank_reference_idx" ON "funding_confirmations" USING btree ("bank_reference") WHERE "funding_confirmations"."status" <> 'rejected';--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_fundings_reference_idx" ON "wallet_fundings" USING btree ("partner_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_fundings_provider_reference_idx" ON "wallet_fundings" USING btree ("provider","provider_reference");--> statement-breakpoint
CREATE INDEX "wallet_fundings_partner_created_idx" ON "wallet_fundings" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "wallet_fundings_pending_idx" ON "wallet_fundings" USING btree ("expires_at") WHERE "wallet_fundings"."status" = 'pending';