ALTER TABLE "policies" ADD COLUMN "version_at" timestamp with time zone;--> statement-breakpoint
-- Written by hand: the versions changed so far took effect when their change applied (decided, or
-- applied at once when it was asked for), which their certificates print.
UPDATE "policies" AS p SET "version_at" = coalesce(e."decided_at", e."created_at")
FROM "policy_endorsements" AS e
WHERE e."policy_id" = p."id" AND e."version" = p."version" AND p."version" > 1;
