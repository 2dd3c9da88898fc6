/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { partnerFundings } from "./lists";
export { fundingRow } from "./presenter";
export { testBalance } from "./top-ups";
