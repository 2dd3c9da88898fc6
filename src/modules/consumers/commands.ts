import { z } from "zod";
import { pageSeed } from "../../core/pagination";
import { watTimestamp } from "../../core/time";
import { BAD_CURSOR, BLANK_FIELD, page, UNKNOWN_FIELD, wireTimestamp } from "../../http/answers";
import { type CommandContext, command, refusal } from "../../http/registry";
import { BAD_PHONE, consumerListAdminExamples, consumerListExamples, profileExamples } from "./examples";
import { consumerSeed, DOCUMENT_FIELDS } from "./model";
import { type ConsumerRecord, listConsumers, registerConsumer, wireConsumerId } from "./service";

const consumerIds = {
  id: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .meta({ description: "The consumer id, 32 hex characters: the <consumer_id> of entt_ commands" }),
  id_uuid: z.uuid().meta({ description: "The same id, hyphenated; accepted wherever the id is" }),
};

// The stored profile is the seed without its documents (DOCUMENT_FIELDS), which are kept apart and listed by name.
const { cac02: _cac02, cac07: _cac07, dob, socialID, ...profileFields } = consumerSeed.shape;
const storedProfile = z.object({
  ...profileFields,
  dob: dob.unwrap().omit({ proof: true }).optional(),
  socialID: socialID.unwrap().omit({ image: true }).optional(),
});
const listedConsumer = z.object({
  ...consumerIds,
  ...storedProfile.shape,
  documents: z.array(z.enum(DOCUMENT_FIELDS)).meta({ description: "The documents on file, by field" }),
  tmstmp: wireTimestamp,
  updated: wireTimestamp,
});

/** A consumer in the administrator's list: every partner's, so each names its partner. */
const listedConsumerOfAnyPartner = listedConsumer.extend({ partnerId: z.uuid().meta({ description: "The partner the consumer belongs to" }) });

/** A consumer as list commands show it: the stored profile plus ids, document names and times. */
function wireConsumer(c: ConsumerRecord) {
  return {
    id: wireConsumerId(c.id),
    id_uuid: c.id,
    // Stored as prfl entity validated it (consumerSeed), documents apart.
    ...(c.profile as z.input<typeof storedProfile>),
    documents: c.documents as (typeof DOCUMENT_FIELDS)[number][],
    tmstmp: watTimestamp(c.createdAt),
    updated: watTimestamp(c.updatedAt),
  };
}

/** This partner's page of consumers. */
async function listPage(ctx: CommandContext, seed: { limit: number; cursor?: string }) {
  const page = await listConsumers(ctx.db, { partnerId: ctx.principal.partnerId }, seed);
  return { list: page.items.map(wireConsumer), nextCursor: page.nextCursor };
}

/** The administrator's page: every partner's consumers, each with its partnerId after its ids. */
async function everyPartnerPage(ctx: CommandContext, seed: { limit: number; cursor?: string }) {
  const page = await listConsumers(ctx.db, {}, seed);
  return {
    list: page.items.map((c) => {
      const { id, id_uuid, ...rest } = wireConsumer(c);
      return { id, id_uuid, partnerId: c.partnerId, ...rest };
    }),
    nextCursor: page.nextCursor,
  };
}

// ─── The reference: refusals no example shows (examples.ts has the examples and the refusals they show) ───

const NAME_REQUIRED = refusal(400, "seed.name.first is required for an individual consumer (class h)");
const PHONE_REQUIRED = refusal(400, "seed.phoneNo is required for an individual consumer (class h)");
const BRAND_REQUIRED = refusal(400, "seed.name.brand is required for an organisation consumer (class o)");

export const consumerCommands = [
  command({
    grammar: "prfl entity",
    pattern: /^prfl entity$/,
    who: "partner",
    summary: "Register a consumer, or update the consumer already registered with the same e-mail (spec 2.3).",
    documentedSeed: consumerSeed,
    answer: z.object(consumerIds),
    errors: [
      NAME_REQUIRED,
      PHONE_REQUIRED,
      BRAND_REQUIRED,
      BAD_PHONE,
      refusal(400, "seed.dob.date must be a date in the form YYYY-MM-DD"),
      refusal(
        415,
        "seed.<document> must be a JPEG, PNG, WebP image or a PDF document; the decoded bytes are none of these",
        "a document (dob.proof, socialID.image, cac02, cac07) is something else",
      ),
      refusal(413, "seed.<document> is too large: documents may be at most <bytes> bytes once decoded"),
      BLANK_FIELD,
      UNKNOWN_FIELD,
    ],
    examples: profileExamples,
    async handler(ctx, _params, seed) {
      const { id } = await registerConsumer(ctx.db, ctx.principal.partnerId, seed, {
        maxDocumentBytes: ctx.config.MAX_DOCUMENT_BYTES,
        now: ctx.now(),
      });
      return { id: wireConsumerId(id), id_uuid: id };
    },
  }),
  command({
    grammar: "dump entt_*CSTMRS",
    pattern: /^dump entt_\*CSTMRS$/,
    who: "partner",
    seed: pageSeed,
    summary: "List this partner's consumers, newest first, with a cursor for the next page.",
    answer: page(listedConsumer),
    errors: [BAD_CURSOR],
    examples: consumerListExamples,
    handler: (ctx, _params, seed) => listPage(ctx, seed),
  }),
  command({
    grammar: "dump entt_*CSTMRS_ADMIN",
    pattern: /^dump entt_\*CSTMRS_ADMIN$/,
    who: "admin",
    seed: pageSeed,
    summary: "List every partner's consumers (administrator only).",
    answer: page(listedConsumerOfAnyPartner),
    errors: [BAD_CURSOR],
    examples: consumerListAdminExamples,
    handler: (ctx, _params, seed) => everyPartnerPage(ctx, seed),
  }),
];
