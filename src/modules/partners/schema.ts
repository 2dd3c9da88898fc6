import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";

export const partners = pgTable("partners", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  /** The operator's internal account: may run the administrator-only commands. */
  isAdmin: boolean("is_admin").notNull().default(false),
  enrichmentEnabled: boolean("enrichment_enabled").notNull().default(false),
  /** Account toggle (set env_live / set env_test); legacy keys follow it. */
  mode: text("mode", { enum: ["test", "live"] })
    .notNull()
    .default("test"),
  suspended: boolean("suspended").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** Where the monthly statement is e-mailed (the owner sets it on the account page); none, no statement e-mail. */
  financeEmail: text("finance_email"),
});

/**
 * The key and owner of a partner's row: its id, and the partner it belongs to. `referenced: false`
 * leaves the foreign key out, for the rows every issuance appends (policies, their events, ledger
 * lines): their partner is the one whose key the request authenticated, a partner is never deleted
 * (a trigger refuses it), and the key's check cost each row a lookup and a lock on the partner's
 * row, which concurrent commits then shared (docs/decisions.md, "Policies, their events and ledger
 * lines name their partner without a foreign key").
 */
export const partnerOwned = ({ referenced = true } = {}) => {
  const partnerId = uuid("partner_id").notNull();
  return { id: uuid("id").primaryKey(), partnerId: referenced ? partnerId.references(() => partners.id) : partnerId };
};

export const apiKeys = pgTable(
  "api_keys",
  {
    /** id: userInfo.athrzt.id */
    ...partnerOwned(),
    label: text("label", { enum: ["test", "live", "legacy"] }).notNull(),
    /** SHA-256 of the key (hex): keys are 32 random bytes, so a fast hash is enough. */
    keyHash: text("key_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_partner_idx").on(t.partnerId)],
);

/**
 * How much of a claim an operator's administrator may decide alone (docs/claims.md, "Authority"):
 * an assessor up to CLAIM_AUTHORITY_ASSESSOR_NAIRA, a claims manager up to
 * CLAIM_AUTHORITY_MANAGER_NAIRA, the head of claims without limit. Above it, their decision is a
 * recommendation a second administrator with the authority confirms.
 */
export const CLAIM_AUTHORITIES = ["assessor", "manager", "head"] as const;
export type ClaimAuthority = (typeof CLAIM_AUTHORITIES)[number];
/** Each authority's name, as the Administrators page and the audit log say it. */
export const CLAIM_AUTHORITY_WORDS: Record<ClaimAuthority, string> = { assessor: "Assessor", manager: "Claims manager", head: "Head of claims" };

export const portalUsers = pgTable(
  "portal_users",
  {
    ...partnerOwned(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["owner", "staff", "admin"] }).notNull(),
    active: boolean("active").notNull().default(true),
    /** The operator's administrators only: their authority over claims. */
    claimAuthority: text("claim_authority", { enum: CLAIM_AUTHORITIES }),
    /** Invited staff sign in with a one-time password and must choose their own first. */
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("portal_users_email_idx").on(sql`lower(${t.email})`)],
);

/**
 * How a partner's messages to their insured look (src/modules/notices): the name they sign with, the
 * logo and colour of an e-mail's header, the support contact of its footer and of an SMS. A partner
 * without a row writes with its own name, the service's colour and no logo.
 */
export const partnerBranding = pgTable("partner_branding", {
  partnerId: uuid("partner_id")
    .primaryKey()
    .references(() => partners.id),
  displayName: text("display_name"),
  /** A small PNG or JPEG (sniffed, capped: docs/templates.md). */
  logo: bytea("logo"),
  logoMime: text("logo_mime", { enum: ["image/png", "image/jpeg"] }),
  /** #rrggbb: the e-mail header's colour. */
  colour: text("colour"),
  supportEmail: text("support_email"),
  supportPhone: text("support_phone"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});
