ALTER TABLE "wallet_entries" ADD COLUMN "rate_basis_points" integer;--> statement-breakpoint
CREATE INDEX "wallet_entries_created_idx" ON "wallet_entries" USING btree ("created_at");--> statement-breakpoint
-- Lines written before the column: their rate from the reference's words ("12.5 %").
UPDATE "wallet_entries" SET "rate_basis_points" = round(substring("reference" from '^([0-9]+(\.[0-9]+)?) %$')::numeric * 100)::integer WHERE "kind" IN ('commission', 'commission_reversal') AND "reference" ~ '^[0-9]+(\.[0-9]+)? %$';
