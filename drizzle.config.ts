import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // Every module's tables: one schema.ts per module folder (src/modules/<area>/schema.ts).
  schema: "./src/modules/*/schema.ts",
  out: "./drizzle",
});
