/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { COMPLAINT_CATEGORIES, type ComplaintCategory } from "./categories";
export { fileComplaint } from "./service";
