/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { DOCUMENT_FIELDS } from "./model";
export { consumerName, consumerNamesOf, profileLines } from "./presenter";
export { consumerNameText, consumerPhone, consumers } from "./schema";
export { type ConsumerRecord, consumerDocument, consumerDocumentList, findConsumer, listConsumers, wireConsumerId } from "./service";
