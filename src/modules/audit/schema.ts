import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Who did what: every change made through the portal, and the administrators' commands. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /**
     * The portal user, when a person did it. No foreign keys here: every module writes the log, so it
     * sits below the partners module; partners are never deleted (a trigger refuses it) and portal
     * users are deactivated, never deleted, so no row loses what it names.
     */
    actorUserId: uuid("actor_user_id"),
    /** How the actor is shown: an e-mail, or "API key <label>" for commands. */
    actor: text("actor").notNull(),
    /** The partner whose data changed (for an administrator's action: the partner acted upon). */
    partnerId: uuid("partner_id"),
    /** Dot-separated, e.g. policy.approve, key.rotate, user.invite. */
    action: text("action").notNull(),
    /** What it was done to, e.g. a policy reference or a user's e-mail. */
    subject: text("subject").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_partner_at_idx").on(t.partnerId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
