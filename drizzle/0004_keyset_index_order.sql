DROP INDEX "consumers_partner_created_idx";--> statement-breakpoint
DROP INDEX "consumers_created_idx";--> statement-breakpoint
DROP INDEX "quotes_partner_product_idx";--> statement-breakpoint
DROP INDEX "policies_partner_created_idx";--> statement-breakpoint
DROP INDEX "policies_created_idx";--> statement-breakpoint
DROP INDEX "wallet_entries_partner_created_idx";--> statement-breakpoint
DROP INDEX "claims_partner_created_idx";--> statement-breakpoint
DROP INDEX "claims_created_idx";--> statement-breakpoint
DROP INDEX "financing_plans_partner_created_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_partner_created_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_created_idx";--> statement-breakpoint
DROP INDEX "webhook_endpoints_partner_created_idx";--> statement-breakpoint
DROP INDEX "audit_log_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_partner_at_idx";--> statement-breakpoint
CREATE INDEX "consumers_partner_created_idx" ON "consumers" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "consumers_created_idx" ON "consumers" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "quotes_partner_product_idx" ON "quotes" USING btree ("partner_id","product_code","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "policies_partner_created_idx" ON "policies" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "policies_created_idx" ON "policies" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "wallet_entries_partner_created_idx" ON "wallet_entries" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "claims_partner_created_idx" ON "claims" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "claims_created_idx" ON "claims" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "financing_plans_partner_created_idx" ON "financing_plans" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_partner_created_idx" ON "webhook_deliveries" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_endpoints_partner_created_idx" ON "webhook_endpoints" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_partner_at_idx" ON "audit_log" USING btree ("partner_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);