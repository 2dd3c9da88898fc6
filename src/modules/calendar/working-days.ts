/**
 * Calendar arithmetic on Nigerian dates (YYYY-MM-DD): no database, so the claims clock and its
 * property tests use the same rules. A working day is Monday to Friday and not a public holiday.
 */
import { DAY_MS } from "../../core/time";

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** `date` moved by `days` calendar days (negative: back). */
export const addDays = (date: string, days: number): string => dateOf(dayNumber(date) + days);

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** Saturday and Sunday. */
const isWeekend = (date: string): boolean => {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
};

export const isWorkingDay = (date: string, holidays: ReadonlySet<string>): boolean => !isWeekend(date) && !holidays.has(date);

/**
 * The `n`th working day after `date` (n ≥ 1): the day itself never counts, whatever it is, as a
 * liability admitted on a Friday evening or a holiday has its first working day next.
 */
export function addWorkingDays(date: string, n: number, holidays: ReadonlySet<string>): string {
  let day = date;
  for (let left = n; left > 0; ) {
    day = addDays(day, 1);
    if (isWorkingDay(day, holidays)) left--;
  }
  return day;
}

/** Working days after `from` up to and including `to` (0 when `to` is not after `from`). */
export function workingDaysBetween(from: string, to: string, holidays: ReadonlySet<string>): number {
  let count = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (isWorkingDay(day, holidays)) count++;
  return count;
}
