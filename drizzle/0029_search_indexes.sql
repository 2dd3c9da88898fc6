-- The search (issue 36, src/modules/search): part of a consumer's name through trigrams (pg_trgm, a
-- trusted extension since PostgreSQL 13; PGlite loads it in src/db/client.ts), and one index for each
-- other lookup the search makes across every partner: e-mail, reference, claim reference. The phone
-- index of 0028 becomes partial (numbers only). Regenerated at the merge after 0028_policy_find.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "consumers_phone_idx";--> statement-breakpoint
CREATE INDEX "claims_reference_idx" ON "claims" USING btree ("reference") WHERE "claims"."reference" is not null;--> statement-breakpoint
CREATE INDEX "consumers_name_trgm_idx" ON "consumers" USING gin ((coalesce("profile"->'name'->>'first', '') || ' ' || coalesce("profile"->'name'->>'middle', '') || ' ' || coalesce("profile"->'name'->>'last', '') || ' ' || coalesce("profile"->'name'->>'brand', '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "consumers_email_idx" ON "consumers" USING btree ("email") WHERE "consumers"."email" is not null;--> statement-breakpoint
CREATE INDEX "policies_reference_idx" ON "policies" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "consumers_phone_idx" ON "consumers" USING btree (("profile"->>'phoneNo')) WHERE ("consumers"."profile"->>'phoneNo') is not null;