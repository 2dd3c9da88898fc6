/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { sandboxDeclineNote } from "./declines";
export { magicReference } from "./references";
