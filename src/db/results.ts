/**
 * The rows of a raw `db.execute(sql…)`: postgres.js answers with the rows themselves (an array),
 * PGlite with `{ rows }`.
 */
export function resultRows<Row = Record<string, unknown>>(result: unknown): Row[] {
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}
