ALTER TABLE "policies" ADD COLUMN "endorsed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Policies changed before the flag.
UPDATE "policies" SET "endorsed" = true WHERE "id" IN (SELECT "policy_id" FROM "policy_endorsements");
