import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { partners, portalUsers } from "../partners/schema";

/**
 * Portal sign-ins. The session cookie is a signed JWT naming one of these rows, so a session can
 * be ended (sign-out, password change, deactivation) before the token expires.
 */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => portalUsers.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    userAgent: text("user_agent"),
  },
  (t) => [index("portal_sessions_user_idx").on(t.userId)],
);

/** Who did what: every change made through the portal, and the administrators' commands. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** The portal user, when a person did it. */
    actorUserId: uuid("actor_user_id").references(() => portalUsers.id),
    /** How the actor is shown: an e-mail, or "API key <label>" for commands. */
    actor: text("actor").notNull(),
    /** The partner whose data changed (for an administrator's action: the partner acted upon). */
    partnerId: uuid("partner_id").references(() => partners.id),
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

/** Secrets the service makes for itself on first use (the session signing key when SESSION_SECRET is unset). */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});
