import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { MESSAGE_CHANNELS } from "../messages";
import { partnerOwned, partners } from "../partners";
import { TEMPLATE_FORMS } from "./catalogue";

/**
 * A partner's templates, every version kept: a message is rendered with the version in effect when it
 * is rendered (the latest whose effectiveFrom has come). A version without a body is a reset: the
 * default in code applies again.
 */
export const noticeTemplates = pgTable(
  "notice_templates",
  {
    ...partnerOwned(),
    /** The notice's key (catalogue.ts): policy.issued, claim.approved … */
    notice: text("notice").notNull(),
    form: text("form", { enum: TEMPLATE_FORMS }).notNull(),
    /** E-mail only. */
    subject: text("subject"),
    /** Null: back to the default. */
    body: text("body"),
    effectiveFrom: timestamp("effective_from", { withTimezone: true }).notNull(),
    /** Who saved it (the signed-in user's e-mail). */
    savedBy: text("saved_by").notNull(),
  },
  (t) => [index("notice_templates_current_idx").on(t.partnerId, t.notice, t.form, t.effectiveFrom.desc())],
);

/**
 * The notices a partner sends themselves, per channel (their webhook tells them the event): the
 * service writes those messages as suppressed, so they are still shown. No row: the service sends.
 */
export const noticeSenders = pgTable(
  "notice_senders",
  {
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    notice: text("notice").notNull(),
    channel: text("channel", { enum: MESSAGE_CHANNELS }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.notice, t.channel] })],
);
