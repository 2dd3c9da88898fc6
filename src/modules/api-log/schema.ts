import { index, integer, pgTable, real, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The API log (issue 8): each partner's recent requests to POST / and their answers, for the
 * portal's "API log" page. Written in batches by a background flusher, never by the request itself;
 * pruned to the newest API_LOG_KEEP per partner and API_LOG_MAX_AGE (src/modules/api-log/service.ts).
 * The authorization key is never stored; documents and secrets are redacted; bodies are cut at 8 KB.
 */
export const apiRequests = pgTable(
  "api_requests",
  {
    id: uuid("id").primaryKey(),
    /** No foreign key: partners are never deleted, and a per-row check would cost every batch a lookup and a lock. */
    partnerId: uuid("partner_id").notNull(),
    /** The request id of the logs and the x-request-id header. */
    requestId: text("request_id").notNull(),
    /** The command as the registry names it (`dump ipck_<product_code>*PRMM`); null for an unknown command. */
    command: text("command"),
    /** cmmnd.cmmnd as sent (at most 200 characters). */
    commandText: text("command_text").notNull(),
    keyId: uuid("key_id").notNull(),
    keyLabel: text("key_label", { enum: ["test", "live", "legacy"] }).notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** exctnFdbck.id: 75, 55, or 35 (at capacity, or the database briefly lost: both after the partner is known). */
    outcome: smallint("outcome").notNull(),
    /** exctnFdbck.id_v4. */
    status: smallint("status").notNull(),
    durationMs: real("duration_ms").notNull(),
    /** The request as JSON, redacted; cut at 8 KB (then not valid JSON: requestLength says how long it was). */
    request: text("request").notNull(),
    /** Characters of the redacted request before any cut. */
    requestLength: integer("request_length").notNull(),
    response: text("response").notNull(),
    responseLength: integer("response_length").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  // DESC NULLS FIRST is what ORDER BY … DESC means, so newest-first pages and the retention cut read it in order.
  (t) => [index("api_requests_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);
