import { type SQL, sql } from "drizzle-orm";

/**
 * Ids as one `uuid[]` parameter, for `= any(…)`: the planner counts an array's elements, where it
 * takes any JSON recordset for 100 rows and, joining that to a table it believes small, scanned the
 * whole table (every policy for an underwriting pass, every wallet for a statement of premiums).
 */
export const uuidArray = (ids: Iterable<string>): SQL => sql`${`{${[...ids].join(",")}}`}::uuid[]`;
