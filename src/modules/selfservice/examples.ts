/** The examples of the self-service command (CommandExample, src/http/registry.ts), which test/reference.test.ts sends to the app. */
import { type CommandExample, refusal } from "../../http/registry";

export const UNKNOWN_CONSUMER = refusal(404, "consumer <consumer> not found: use an id prfl entity returned to you");

/** consumer link */
export const consumerLinkExamples: readonly CommandExample[] = [
  {
    name: "consumer-link",
    title: "The link to the consumer's own page, to show in your app or send them",
    cmmnd: "consumer link",
    seed: { consumer: "{{consumer.id}}" },
    after: ["consumer"],
    answer: { url: "{{selfServiceUrl}}", expiresAt: "{{timestamp}}" },
  },
];
