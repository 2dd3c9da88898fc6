import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { portalUsers } from "../partners";

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

/** Secrets the service makes for itself on first use (the session signing key when SESSION_SECRET is unset). */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});
