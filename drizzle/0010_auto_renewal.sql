ALTER TABLE "policies" ADD COLUMN "auto_renew" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "auto_renew_failed_at" timestamp with time zone;