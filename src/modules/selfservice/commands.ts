import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { watTimestamp } from "../../core/time";
import { parseWith } from "../../core/validation";
import { wireTimestamp } from "../../http/answers";
import { command, refusal } from "../../http/registry";
import { consumerLinkExamples, UNKNOWN_CONSUMER } from "./examples";
import { consumerLink } from "./service";

const linkSeed = z.strictObject({
  consumer: z.string().min(1).max(64).meta({ description: "The consumer's id, as prfl entity returned it" }),
});

/** The documented extension of the policyholder's own page (docs/self-service.md). */
export const selfServiceCommands = [
  command({
    grammar: "consumer link",
    pattern: /^consumer link$/,
    who: "partner",
    summary:
      "A signed link to the consumer's own page (their cover, certificates and claims, in your branding), valid SELF_SERVICE_LINK_HOURS: show it in your app or send it to them; mint a new one whenever they need it.",
    documentedSeed: linkSeed,
    answer: z.object({
      url: z.string().meta({ description: "The page's link: whoever holds it sees the consumer's page until it expires" }),
      expiresAt: wireTimestamp,
    }),
    errors: [UNKNOWN_CONSUMER, refusal(400, "consumer id '<consumer>' is invalid: use the id (or id_uuid) returned by prfl entity")],
    examples: consumerLinkExamples,
    async handler(ctx, _params, raw) {
      refuseBlankFields(raw);
      const seed = parseWith(linkSeed, raw ?? {});
      const link = await consumerLink(ctx.db, ctx.config, ctx.principal.partnerId, seed.consumer, new Date());
      return { url: link.url, expiresAt: watTimestamp(link.expiresAt) };
    },
  }),
];
