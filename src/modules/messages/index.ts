/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { type OutgoingMessage, queueMessage, queueMessages, reachable } from "./queue";
export { MESSAGE_CHANNELS, type MessageChannel, messageEvents, messages } from "./schema";
