/** Public holidays: read by the claims clock, kept by the operator's administrators (audited). */
import { and, asc, eq, gte, lte } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { isoDate } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { publicHolidays } from "./schema";

export type PublicHoliday = typeof publicHolidays.$inferSelect;

/** The holidays from `from` to `to` (Nigerian dates, both included), as a set the working-day rules read. */
export async function holidaysBetween(db: Executor, from: string, to: string): Promise<Set<string>> {
  const rows = await db
    .select({ day: publicHolidays.day })
    .from(publicHolidays)
    .where(and(gte(publicHolidays.day, from), lte(publicHolidays.day, to)));
  return new Set(rows.map((r) => r.day));
}

/** The holidays on or after `from`, soonest first. */
export const listHolidays = (db: Executor, from: string): Promise<PublicHoliday[]> =>
  db.select().from(publicHolidays).where(gte(publicHolidays.day, from)).orderBy(asc(publicHolidays.day));

/** A holiday as a form sends it: a real date and a name, each refused beside its field. */
export function holidayFrom(values: { day?: string; name?: string }): { day: string; name: string } {
  const day = values.day?.trim() ?? "";
  const checked = isoDate.safeParse(day);
  if (!day) throw new CommandError(400, "day: choose the date of the holiday", "day");
  if (!checked.success) throw new CommandError(400, `day ${checked.error.issues[0]!.message}`, "day");
  const name = values.name?.trim().replace(/\s+/g, " ") ?? "";
  if (!name) throw new CommandError(400, "name: say which holiday it is, e.g. Eid-el-Fitr", "name");
  if (name.length > 100) throw new CommandError(400, `name must be at most 100 characters; it has ${name.length}`, "name");
  return { day, name };
}

/** Adds a holiday (409 when the day is one already). */
export async function addHoliday(db: Database, actor: AuditActor, holiday: { day: string; name: string }, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(publicHolidays)
      .values({ ...holiday, addedBy: "email" in actor ? actor.email : actor.label, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!added.length) {
      const [existing] = await tx.select().from(publicHolidays).where(eq(publicHolidays.day, holiday.day));
      throw new CommandError(409, `day: ${holiday.day} is already a public holiday (${existing?.name ?? "another holiday"})`, "day");
    }
    await recordAudit(tx, actor, { action: "holiday.add", subject: holiday.day, details: { name: holiday.name } }, now);
  });
}

/** Removes a holiday the government moved or cancelled (404 when there is none that day). */
export async function removeHoliday(db: Database, actor: AuditActor, day: string, now: Date): Promise<PublicHoliday> {
  return db.transaction(async (tx) => {
    const [removed] = await tx.delete(publicHolidays).where(eq(publicHolidays.day, day)).returning();
    if (!removed) throw new CommandError(404, `${day} is not a public holiday`);
    await recordAudit(tx, actor, { action: "holiday.remove", subject: day, details: { name: removed.name } }, now);
    return removed;
  });
}
