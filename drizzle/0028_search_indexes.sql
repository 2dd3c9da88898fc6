-- The search (issue 36, src/modules/search): part of a consumer's name through trigrams (pg_trgm, a
-- trusted extension since PostgreSQL 13; PGlite loads it in src/db/client.ts), and one index for each
-- other lookup the search makes across every partner: phone, e-mail, reference, plate, claim reference,
-- and a consumer's policies newest first.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "claims_reference_idx" ON "claims" USING btree ("reference") WHERE "claims"."reference" is not null;--> statement-breakpoint
CREATE INDEX "consumers_name_trgm_idx" ON "consumers" USING gin ((coalesce("profile"->'name'->>'first', '') || ' ' || coalesce("profile"->'name'->>'middle', '') || ' ' || coalesce("profile"->'name'->>'last', '') || ' ' || coalesce("profile"->'name'->>'brand', '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "consumers_phone_idx" ON "consumers" USING btree (("profile"->>'phoneNo')) WHERE ("consumers"."profile"->>'phoneNo') is not null;--> statement-breakpoint
CREATE INDEX "consumers_email_idx" ON "consumers" USING btree ("email") WHERE "consumers"."email" is not null;--> statement-breakpoint
CREATE INDEX "policies_reference_idx" ON "policies" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "policies_plate_idx" ON "policies" USING btree (("facts"->>'rgstrtId')) WHERE ("policies"."facts"->>'rgstrtId') is not null;--> statement-breakpoint
CREATE INDEX "policies_consumer_created_idx" ON "policies" USING btree ("consumer_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);