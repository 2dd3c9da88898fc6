/**
 * Did the database refuse this because the unique index `index` already holds the value? Both
 * engines report SQLSTATE 23505; postgres.js names the index `constraint_name`, PGlite `constraint`.
 */
export function isUniqueViolation(error: unknown, index: string): boolean {
  type DriverError = { code?: string; constraint_name?: string; constraint?: string; cause?: unknown };
  for (let e = error as DriverError | undefined; e; e = e.cause as DriverError | undefined) {
    if (e.code === "23505") return (e.constraint_name ?? e.constraint) === index;
  }
  return false;
}
