type DriverError = { code?: unknown; errno?: unknown; constraint_name?: string; constraint?: string; cause?: unknown };

/** The error and the causes it wraps (drizzle wraps the driver's error in `cause`), at most 8 deep. */
function* chain(error: unknown): Generator<DriverError> {
  for (let e = error as DriverError | undefined, depth = 0; e && depth < 8; e = e.cause as DriverError | undefined, depth++) yield e;
}

/**
 * Did the database refuse this because the unique index `index` already holds the value? Both
 * engines report SQLSTATE 23505; postgres.js names the index `constraint_name`, PGlite `constraint`.
 */
export function isUniqueViolation(error: unknown, index: string): boolean {
  for (const e of chain(error)) {
    if (e.code === "23505") return (e.constraint_name ?? e.constraint) === index;
  }
  return false;
}

/**
 * Did this fail because the database connection was lost or could not be had (as opposed to the
 * database refusing the statement)? postgres.js reports its own connection states by `code`, the
 * socket its errno, and PostgreSQL SQLSTATE class 08, 57P01–57P03 (a terminated backend, a
 * server shutting down or starting) or 57P05 (idle_session_timeout ended the session). Such a
 * failure says nothing about whether a transaction that was committing took effect.
 */
export function isConnectionError(error: unknown): boolean {
  for (const e of chain(error)) {
    const code = typeof e.code === "string" ? e.code : typeof e.errno === "string" ? e.errno : "";
    if (CONNECTION_CODES.has(code) || /^08/.test(code) || /^57P0[1235]$/.test(code)) return true;
  }
  return false;
}

/**
 * Did the database not finish this for reasons of its own state rather than the statement's: a lost
 * connection, or a statement cancelled (57014) by `statement_timeout` or an operator. Either way a
 * repeat in a moment is the remedy, so the answer is "try again" (35 or 503), never 500; what a
 * command with a reference stored is looked up as for a lost connection. The worker tells the two
 * apart: a timed-out job backs off instead of hurrying back to a busy database.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  for (const e of chain(error)) if (e.code === "57014") return true;
  return false;
}

/**
 * Did the statement fail for one row's sake, or lose a race it may win alone: a constraint (SQLSTATE
 * class 23), a deadlock (40P01) or a serialization failure (40001)? Nothing it would have written was.
 */
export function isConflict(error: unknown): boolean {
  for (const e of chain(error)) if (typeof e.code === "string" && (e.code.startsWith("23") || e.code === "40P01" || e.code === "40001")) return true;
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
