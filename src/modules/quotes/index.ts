/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { issueSeedsFromForm, quoteSeedFromForm } from "./model";
export { quotes } from "./schema";
export { quotePremium } from "./service";
