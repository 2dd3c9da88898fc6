CREATE TABLE "registry_lookups" (
	"search_type" text NOT NULL,
	"value" text NOT NULL,
	"answer" json NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "registry_lookups_search_type_value_pk" PRIMARY KEY("search_type","value")
);
--> statement-breakpoint
CREATE TABLE "usage_charges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"service" text NOT NULL,
	"subject" text NOT NULL,
	"outcome" text NOT NULL,
	"from_cache" boolean NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"mode" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "registry_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_charges_partner_created_idx" ON "usage_charges" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "policies_unpublished_vehicles_idx" ON "policies" USING btree ("status_at") WHERE "policies"."status" = 'a' and "policies"."registry_published_at" is null and "policies"."product_code" like 'vhcl-%';