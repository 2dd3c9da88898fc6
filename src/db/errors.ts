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

/**
 * Did this fail because the database connection was lost or could not be had (as opposed to the
 * database refusing the statement)? postgres.js reports its own connection states by `code`, the
 * socket its errno, and PostgreSQL SQLSTATE class 08, 57P01–57P03 (a terminated backend, a
 * server shutting down or starting) or 57P05 (idle_session_timeout ended the session). drizzle
 * wraps them in `cause`. Such a failure says nothing about whether a transaction that was
 * committing took effect.
 */
export function isConnectionError(error: unknown): boolean {
  type DriverError = { code?: unknown; errno?: unknown; cause?: unknown };
  for (let e = error as DriverError | undefined, depth = 0; e && depth < 8; e = e.cause as DriverError | undefined, depth++) {
    const code = typeof e.code === "string" ? e.code : typeof e.errno === "string" ? e.errno : "";
    if (CONNECTION_CODES.has(code) || /^08/.test(code) || /^57P0[1235]$/.test(code)) return true;
  }
  return false;
}

const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTCONN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
