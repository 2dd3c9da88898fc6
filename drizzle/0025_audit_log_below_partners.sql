ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_actor_user_id_portal_users_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_partner_id_partners_id_fk";
