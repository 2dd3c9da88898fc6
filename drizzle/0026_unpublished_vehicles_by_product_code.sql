-- The registry's queue lists the product codes the product families publish (vehicleRegistryProductCodes,
-- issue 35) instead of matching 'vhcl-%': the same rows today. A family that starts publishing changes
-- this index (npm run db:generate); test/enrichment.test.ts fails until it does.
DROP INDEX "policies_unpublished_vehicles_idx";--> statement-breakpoint
CREATE INDEX "policies_unpublished_vehicles_idx" ON "policies" USING btree ("status_at") WHERE "policies"."status" in ('a', 'c') and "policies"."registry_published_at" is null and "policies"."product_code" in ('vhcl-tprt-1111', 'vhcl-cmpr-1111');