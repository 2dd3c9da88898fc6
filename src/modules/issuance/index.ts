/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { issueRenewal, renewalOf } from "./issuance";
export { policyLine, policyRows } from "./presenter";
