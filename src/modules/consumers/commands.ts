import { command, type CommandContext } from "../../core/registry";
import { pageSeed } from "../../core/pagination";
import { watTimestamp } from "../../core/time";
import { listConsumers, registerConsumer, wireConsumerId, type ConsumerRecord } from "./service";

/** A consumer as list commands show it: the stored profile plus ids, document names and times. */
export function wireConsumer(c: ConsumerRecord, withPartner: boolean) {
  return {
    id: wireConsumerId(c.id),
    id_uuid: c.id,
    ...(withPartner ? { partnerId: c.partnerId } : {}),
    ...c.profile,
    documents: c.documents,
    tmstmp: watTimestamp(c.createdAt),
    updated: watTimestamp(c.updatedAt),
  };
}

async function listPage(ctx: CommandContext, seed: { limit: number; cursor?: string }, everyPartner: boolean) {
  const page = await listConsumers(ctx.db, everyPartner ? {} : { partnerId: ctx.principal.partnerId }, seed);
  return { list: page.items.map((c) => wireConsumer(c, everyPartner)), nextCursor: page.nextCursor };
}

export const consumerCommands = [
  command({
    grammar: "prfl entity",
    pattern: /^prfl entity$/,
    who: "partner",
    summary: "Register a consumer, or update the consumer already registered with the same e-mail (spec 2.3).",
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
    handler: (ctx, _params, seed) => listPage(ctx, seed, false),
  }),
  command({
    grammar: "dump entt_*CSTMRS_ADMIN",
    pattern: /^dump entt_\*CSTMRS_ADMIN$/,
    who: "admin",
    seed: pageSeed,
    summary: "List every partner's consumers (administrator only).",
    handler: (ctx, _params, seed) => listPage(ctx, seed, true),
  }),
];
