import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";
import { partners } from "../partners";
import { policies } from "../policies";
import { type FlagInputs, IDENTIFIER_KINDS } from "./rules";

/**
 * One row per identifier of a claim, as a keyed hash (HMAC-SHA256 of its normalised value): how a
 * claim is matched with claims at every partner without any partner's plain values being kept or
 * shown. `claim_id` is a claim (src/modules/claims, above this module: no reference is declared).
 */
export const claimIdentifiers = pgTable(
  "claim_identifiers",
  {
    claimId: uuid("claim_id").notNull(),
    kind: text("kind", { enum: IDENTIFIER_KINDS }).notNull(),
    /** HMAC-SHA256 (SIGNALS_KEY, or the service's kept key) of "<kind>:<normalised value>". Never the value itself. */
    hash: bytea("hash").notNull(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id),
    /** The policy's mode: sandbox claims are matched with sandbox claims only. */
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** When the claim was made: what "earlier claims" compare. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.kind, t.hash] }), index("claim_identifiers_kind_hash_idx").on(t.kind, t.hash)],
);

/**
 * What the fraud rules flagged on a claim (they flag, never decide): one row per rule that fired,
 * with what it saw (counts, dates, amounts: never another partner's name, reference or identifier)
 * and its score. Worked out again, replacing these rows, when the claim gets new documents.
 */
export const claimFlags = pgTable(
  "claim_flags",
  {
    claimId: uuid("claim_id").notNull(),
    rule: text("rule").notNull(),
    score: integer("score").notNull(),
    inputs: jsonb("inputs").$type<FlagInputs>().notNull(),
    /** CLAIM_SIGNAL_REVIEW_SCORE when the claim was scored (the same on each of its rows): fixed then, like the clock's deadlines. */
    reviewScore: integer("review_score").notNull(),
    /** When the rule first flagged the claim (kept when the claim is scored again). */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.rule] })],
);
