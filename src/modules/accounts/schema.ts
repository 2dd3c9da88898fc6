import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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

export const PASSWORD_LINK_PURPOSES = ["reset", "invitation"] as const;
export type PasswordLinkPurpose = (typeof PASSWORD_LINK_PURPOSES)[number];

/**
 * One-use links to choose a password (docs/security.md, "Password links"): a forgotten password's
 * reset, or an invitation's first password. Only the SHA-256 of the link's random token is kept;
 * a newer link of the user supersedes the ones still open.
 */
export const passwordLinks = pgTable(
  "password_links",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => portalUsers.id),
    purpose: text("purpose", { enum: PASSWORD_LINK_PURPOSES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** A newer link was made for the user, or their password was changed meanwhile. */
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("password_links_token_idx").on(t.tokenHash), index("password_links_user_idx").on(t.userId)],
);

/** Secrets the service makes for itself on first use (the session signing key when SESSION_SECRET is unset). */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});
