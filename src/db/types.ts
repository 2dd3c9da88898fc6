import { customType } from "drizzle-orm/pg-core";

/** Raw bytes (documents). PGlite hands back Uint8Array, postgres.js a Buffer (a Uint8Array too). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});
