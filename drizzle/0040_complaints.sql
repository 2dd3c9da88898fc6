CREATE TABLE "complaint_documents" (
	"complaint_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"by" text NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "complaint_documents_complaint_id_position_pk" PRIMARY KEY("complaint_id","position")
);
--> statement-breakpoint
CREATE TABLE "complaint_notes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"complaint_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "complaints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"complaint_no" text NOT NULL,
	"reference" text,
	"category" text NOT NULL,
	"description" text NOT NULL,
	"complainant_name" text NOT NULL,
	"complainant_email" text,
	"complainant_phone" text,
	"policy_id" uuid,
	"claim_id" uuid,
	"product_code" text,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"history" jsonb NOT NULL,
	"received_on" date NOT NULL,
	"acknowledge_due_on" date NOT NULL,
	"resolve_due_on" date NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"outcome" text,
	"redress_kobo" bigint,
	"resolution" text,
	"letter" "bytea",
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "complaint_documents" ADD CONSTRAINT "complaint_documents_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaint_notes" ADD CONSTRAINT "complaint_notes_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaint_notes_complaint_idx" ON "complaint_notes" USING btree ("complaint_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "complaints_complaint_no_idx" ON "complaints" USING btree ("complaint_no");--> statement-breakpoint
CREATE UNIQUE INDEX "complaints_partner_reference_idx" ON "complaints" USING btree ("partner_id","reference") WHERE "complaints"."reference" is not null;--> statement-breakpoint
CREATE INDEX "complaints_partner_created_idx" ON "complaints" USING btree ("partner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "complaints_open_due_idx" ON "complaints" USING btree ("resolve_due_on","id") WHERE "complaints"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "complaints_received_idx" ON "complaints" USING btree ("received_on");