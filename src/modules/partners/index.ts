/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { partnerOwned, partners, portalUsers } from "./schema";
export { findPartner, partnerChoices, partnerNames, rowsWithPartner } from "./service";
