ALTER TABLE "outbox_events" DROP CONSTRAINT "outbox_events_partner_id_partners_id_fk";
--> statement-breakpoint
ALTER TABLE "policies" DROP CONSTRAINT "policies_partner_id_partners_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_entries" DROP CONSTRAINT "wallet_entries_partner_id_partners_id_fk";
--> statement-breakpoint
-- Written by hand: the rows every issuance appends name their partner without a foreign key (its
-- check cost each row a lookup and a lock on the partner's row, shared by concurrent commits); they
-- rely on a partner never being deleted, which nothing does and this refuses.
CREATE FUNCTION "partners_never_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'partners are never deleted: their policies, events and ledger lines name them without a foreign key';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partners_never_deleted" BEFORE DELETE OR TRUNCATE ON "partners" FOR EACH STATEMENT EXECUTE FUNCTION "partners_never_deleted"();
