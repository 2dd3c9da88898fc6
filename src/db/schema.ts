// Every module's tables, for drizzle's typed client and for drizzle-kit.

export * from "../modules/api-log/schema";
export * from "../modules/certificates/schema";
export * from "../modules/claims/schema";
export * from "../modules/consumers/schema";
export * from "../modules/enrichment/schema";
export * from "../modules/events/schema";
export * from "../modules/financing/schema";
export * from "../modules/partners/schema";
export * from "../modules/policies/schema";
export * from "../modules/portal/schema";
export * from "../modules/quotes/schema";
export * from "../modules/wallet/schema";
export * from "../modules/webhooks/schema";
