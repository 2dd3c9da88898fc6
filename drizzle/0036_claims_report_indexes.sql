-- Written by hand, after 0035 (whose new next_due_on this partial index reads) (issue 37, item 7; docs/reporting.md, "The regulator's view"): the indexes the
-- regulator's view of claims reads (src/modules/reporting/claims-report.ts), so that each figure is
-- a range of an index holding every column it needs rather than a visit of the claims and policies
-- tables (docs/performance.md, "Claims for the regulator at 1M"). They belong to the report, hence
-- here rather than in the claims' and policies' schema.ts: drizzle-kit does not know them and never
-- drops them.
--
-- Open claims (the ageing): the clock's partial index of open claims finds them; this one also holds
-- what the ageing reads of each, so the claims table is not visited.
CREATE INDEX IF NOT EXISTS "claims_open_report_idx" ON "claims" USING btree ("policy_id")
	INCLUDE ("partner_id", "status", "created_at", "settlement_due_on", "paused_since", "paused_until", "reserve_kobo")
	WHERE "next_due_on" IS NOT NULL;--> statement-breakpoint
-- Claims paid, by the instant the money was received (settlement times), with what the figure reads.
CREATE INDEX IF NOT EXISTS "claims_settled_idx" ON "claims" USING btree ("settled_at")
	INCLUDE ("policy_id", "partner_id", "created_at", "settlement_due_on", "late_interest_kobo")
	WHERE "status" = 'paid';--> statement-breakpoint
-- Claims decided (approved, paid since, or rejected), by the instant of the history's step to approved
-- or rejected: the ISO text the history keeps, in the C collation so that it sorts as the instants do.
-- The expression must stay exactly the one claims-report.ts compares (`decidedAt`); jsonb_path_query_first
-- is immutable. (An expression index serves no index-only scan, so it includes nothing.)
CREATE INDEX IF NOT EXISTS "claims_decided_idx" ON "claims" USING btree (
	(jsonb_path_query_first("history", '$[*] ? (@.status == "approved" || @.status == "rejected").at') #>> '{}') COLLATE "C"
) WHERE "status" IN ('approved', 'paid', 'rejected');--> statement-breakpoint
-- A policy's mode and product beside its id: each claim's join to its policy reads this index alone.
CREATE INDEX IF NOT EXISTS "policies_mode_product_idx" ON "policies" USING btree ("id") INCLUDE ("mode", "product_code");
