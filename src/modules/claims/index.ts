/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { renderLetter } from "./letter-pdf";
export { REJECTION_REASONS, type RejectionReason } from "./rejections";
export { type ClaimStatus, claims } from "./schema";
