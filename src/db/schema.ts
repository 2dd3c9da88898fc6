// Every module's tables, for drizzle's typed client and for drizzle-kit.
export * from "../modules/partners/schema";
export * from "../modules/consumers/schema";
export * from "../modules/quotes/schema";
