-- Unlogged (written by hand; drizzle-kit does not model it): the log is a convenience, so it skips the
-- write-ahead log; a database crash empties it and standbys do not have it (docs/decisions.md, API log).
CREATE UNLOGGED TABLE "api_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"command" text,
	"command_text" text NOT NULL,
	"key_id" uuid NOT NULL,
	"key_label" text NOT NULL,
	"mode" text NOT NULL,
	"outcome" smallint NOT NULL,
	"status" smallint NOT NULL,
	"duration_ms" real NOT NULL,
	"request" text NOT NULL,
	"request_length" integer NOT NULL,
	"response" text NOT NULL,
	"response_length" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "api_requests_partner_created_idx" ON "api_requests" USING btree ("partner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);