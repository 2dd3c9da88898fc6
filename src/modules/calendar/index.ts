/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { holidaysBetween } from "./service";
export { addDays, addWorkingDays, daysBetween, isWorkingDay, workingDaysBetween } from "./working-days";
