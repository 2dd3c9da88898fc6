import { date, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Nigeria's public holidays, as data (issue 37): the working days of the claims clock skip them.
 * Shipped with the dates known or expected (the Islamic ones move with the moon); the operator's
 * administrators add the days the Federal Government declares, and remove one it moves.
 */
export const publicHolidays = pgTable("public_holidays", {
  /** The Nigerian date, YYYY-MM-DD. */
  day: date("day", { mode: "string" }).primaryKey(),
  name: text("name").notNull(),
  /** Who added it ("shipped" for the dates that came with the service). */
  addedBy: text("added_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});
