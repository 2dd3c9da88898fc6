/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { type OutgoingMessage, queueMessage, queueMessages, reachable } from "./queue";
export { MESSAGE_CHANNELS, MESSAGE_STATUSES, type MessageChannel, type MessageStatus, messageEvents, messages } from "./schema";
