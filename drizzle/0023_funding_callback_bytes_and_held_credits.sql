-- Edited by hand: drizzle-kit wrote the custom type as "undefined"."bytea" and no USING (text has no
-- cast to bytea). The bodies kept so far are text, so their bytes are their UTF-8.
ALTER TABLE "funding_callbacks" ALTER COLUMN "body" SET DATA TYPE bytea USING convert_to("body", 'UTF8');--> statement-breakpoint
ALTER TABLE "funding_confirmations" ALTER COLUMN "bank_reference" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funding_confirmations" ADD COLUMN "kind" text DEFAULT 'transfer' NOT NULL;--> statement-breakpoint
ALTER TABLE "funding_confirmations" ADD CONSTRAINT "funding_confirmations_transfer_reference" CHECK ("funding_confirmations"."kind" <> 'transfer' or "funding_confirmations"."bank_reference" is not null);