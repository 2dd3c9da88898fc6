import { customType } from "drizzle-orm/pg-core";

/** Raw bytes (documents). PGlite hands back Uint8Array, postgres.js a Buffer (a Uint8Array too). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/** A text-search document (read as its text form; written only by the database, as a generated column). */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => "tsvector",
});
