/** Did the database refuse this because a unique index already holds the value? (Both engines report SQLSTATE 23505.) */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}
