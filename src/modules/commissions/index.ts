/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { earnOnApproval, earnOnExtraPremium, reverseOnRefund } from "./earning";
export { previousMonth } from "./model";
export { partnerStatement } from "./service";
