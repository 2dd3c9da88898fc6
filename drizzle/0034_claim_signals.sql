-- Issue 37, item 6: fraud signals (src/modules/signals). A claim's identifiers as keyed hashes (HMAC-SHA256, never the
-- values), matched across partners through (kind, hash); the rules' flags with what each saw and its score. claim_id is a
-- claim's id without a declared reference: the claims module sits above the signals module (docs/architecture.md).
CREATE TABLE "claim_flags" (
	"claim_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"score" integer NOT NULL,
	"inputs" jsonb NOT NULL,
	"review_score" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "claim_flags_claim_id_rule_pk" PRIMARY KEY("claim_id","rule")
);
--> statement-breakpoint
CREATE TABLE "claim_identifiers" (
	"claim_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"hash" "bytea" NOT NULL,
	"partner_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "claim_identifiers_claim_id_kind_hash_pk" PRIMARY KEY("claim_id","kind","hash")
);
--> statement-breakpoint
ALTER TABLE "claim_identifiers" ADD CONSTRAINT "claim_identifiers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_identifiers" ADD CONSTRAINT "claim_identifiers_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_identifiers_kind_hash_idx" ON "claim_identifiers" USING btree ("kind","hash");