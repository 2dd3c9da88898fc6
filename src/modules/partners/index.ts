/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { CLAIM_AUTHORITIES, CLAIM_AUTHORITY_WORDS, type ClaimAuthority, partnerBranding, partnerOwned, partners, portalUsers } from "./schema";
export { findPartner, partnerChoices, partnerNames, rowsWithPartner } from "./service";
