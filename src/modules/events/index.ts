/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { outboxEvents } from "./schema";
export { type DomainEvent, noticeEventsBy, outboxRow, recordEvent, recordEvents, routeEventsBy } from "./service";
