/**
 * The client's seeds and answers are the service's own schemas (clients/typescript/src/generated.ts,
 * generated from GET /openapi.json), checked twice:
 *
 * - by the compiler (`npm run typecheck` compiles this file): every `@ts-expect-error` call below
 *   must be a type error, and every `Same<…>` must hold;
 * - at run time: each of those calls, made with a client whose fetch keeps the request instead of
 *   sending it, must send a seed that the service's own zod schema (the registry's) refuses — and
 *   each accepted call a seed it accepts. The types reject exactly what the service would refuse.
 */
import { describe, expect, test } from "bun:test";
import type { z } from "zod";
import type {
  AdminConsumerEntry,
  AdminTransactionEntry,
  Answer,
  AnswerBody,
  AnswerSchemaName,
  ConsumerSeed,
  InsureSeed,
  PartnerClient,
  QuoteSeed,
  Schemas,
  StatusAnswerBody,
} from "../../clients/typescript/src/index";
import { commandRegistry } from "../../src/assembly/commands";
import { vehicleFacts as fixtureVehicle } from "../support/fixtures";
import { type Holds, type Method, recordingClient, type Same } from "./support";

/** The seed parameter (position `At`) of a method, without the `undefined` of a default. */
type SeedOf<M extends Method, At extends number> = NonNullable<Parameters<PartnerClient[M]>[At]>;
type AnswerOf<M extends Method> = Awaited<ReturnType<PartnerClient[M]>>;
/** Method M answers the success of command `Slug`: its `<Slug>.response` schema. */
type Answers<M extends Method, Slug extends string> = Same<AnswerOf<M>, Answer<AnswerBody<`${Slug}.response` & AnswerSchemaName>>>;
/** Method M takes, at position `At`, the seed of command `Slug`: its `<Slug>.seed` schema. */
type Takes<M extends Method, At extends number, Slug extends string> = Same<SeedOf<M, At>, Schemas[`${Slug}.seed` & keyof Schemas]>;

// Every method takes and answers its command's generated schemas (clients/typescript/src/generated.ts).
export type MethodsUseTheirCommandsSchemas = [
  Holds<Takes<"registerConsumer", 0, "prfl-entity">>,
  Holds<Answers<"registerConsumer", "prfl-entity">>,
  Holds<Answers<"quote", "dump-ipck-product-code-prmm">>,
  Holds<Takes<"insure", 1, "entt-consumer-id-insure">>,
  Holds<Answers<"insure", "entt-consumer-id-insure">>,
  Holds<Answers<"status", "dump-entt-consumer-id-insr-product-code-tx-id-status">>,
  Holds<Takes<"approve", 3, "appr-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"approve", "appr-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Takes<"cancel", 3, "cncl-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"cancel", "cncl-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"quoteCancellation", "dump-entt-consumer-id-insr-product-code-tx-id-refund">>,
  Holds<Takes<"reinstate", 3, "rinst-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"reinstate", "rinst-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Takes<"renew", 3, "rnew-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"renew", "rnew-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"setAutoRenew", "rnew-entt-consumer-id-insr-product-code-tx-id-auto">>,
  Holds<Takes<"endorse", 3, "ndrs-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Answers<"endorse", "ndrs-entt-consumer-id-insr-product-code-tx-id">>,
  Holds<Takes<"quoteEndorsement", 3, "dump-entt-consumer-id-insr-product-code-tx-id-endorse">>,
  Holds<Answers<"quoteEndorsement", "dump-entt-consumer-id-insr-product-code-tx-id-endorse">>,
  Holds<Takes<"listTransactions", 0, "dump-entt">>,
  Holds<Answers<"listTransactions", "dump-entt">>,
  Holds<Takes<"listAllTransactions", 0, "dump-entt-admin">>,
  Holds<Answers<"listAllTransactions", "dump-entt-admin">>,
  Holds<Takes<"listConsumers", 0, "dump-entt-cstmrs">>,
  Holds<Answers<"listConsumers", "dump-entt-cstmrs">>,
  Holds<Takes<"listAllConsumers", 0, "dump-entt-cstmrs-admin">>,
  Holds<Answers<"listAllConsumers", "dump-entt-cstmrs-admin">>,
  Holds<Takes<"hospitals", 0, "dump-hlth-hsptls">>,
  Holds<Answers<"hospitals", "dump-hlth-hsptls">>,
  Holds<Answers<"setMode", "set-env-live">>,
  Holds<Answers<"setMode", "set-env-test">>,
  Holds<Takes<"checkVehicle", 0, "enrch-niid-vehicle">>,
  Holds<Answers<"checkVehicle", "enrch-niid-vehicle">>,
  Holds<Answers<"decodeVin", "enrch-vin-vehicle">>,
  Holds<Takes<"submitClaim", 0, "claim-submit">>,
  Holds<Answers<"submitClaim", "claim-submit">>,
  Holds<Answers<"claimStatus", "claim-status">>,
  Holds<Takes<"listClaims", 0, "claim-list">>,
  Holds<Answers<"listClaims", "claim-list">>,
  Holds<Answers<"withdrawClaim", "claim-withdraw">>,
  Holds<Takes<"reviewClaim", 0, "claim-review">>,
  Holds<Answers<"reviewClaim", "claim-review">>,
  Holds<Takes<"financeLoan", 0, "payment-financeloan">>,
  Holds<Answers<"financeLoan", "payment-financeloan">>,
  Holds<Takes<"recordInstallment", 0, "payment-recordinstallment">>,
  Holds<Answers<"recordInstallment", "payment-recordinstallment">>,
  Holds<Answers<"paymentStatus", "payment-status">>,
  Holds<Takes<"runLapse", 0, "payment-runlapse">>,
  Holds<Answers<"runLapse", "payment-runlapse">>,
  Holds<Takes<"topUpWallet", 0, "wallet-topup">>,
  Holds<Answers<"topUpWallet", "wallet-topup">>,
  Holds<Answers<"walletStatement", "wallet-statement">>,
  Holds<Takes<"registerWebhook", 0, "webhook-register">>,
  Holds<Answers<"registerWebhook", "webhook-register">>,
  Holds<Takes<"updateWebhook", 0, "webhook-update">>,
  Holds<Answers<"updateWebhook", "webhook-update">>,
  Holds<Answers<"deleteWebhook", "webhook-delete">>,
  Holds<Takes<"listWebhooks", 0, "webhook-list">>,
  Holds<Answers<"listWebhooks", "webhook-list">>,
  Holds<Takes<"webhookDeliveries", 0, "webhook-deliveries">>,
  Holds<Answers<"webhookDeliveries", "webhook-deliveries">>,
  Holds<Answers<"replayWebhook", "webhook-replay">>,
  Holds<Answers<"testWebhook", "webhook-test">>,
  Holds<Takes<"webhookSecret", 0, "webhook-secret">>,
  Holds<Answers<"webhookSecret", "webhook-secret">>,
];

// The named types are the schemas; product seeds are per product.
export type NamedTypesAreTheSchemas = [
  Holds<Same<ConsumerSeed, Schemas["prfl-entity.seed"]>>,
  Holds<Same<QuoteSeed<"vhcl-tprt-1111">, Schemas["product.vhcl-tprt-1111.quote"]>>,
  Holds<Same<InsureSeed, Schemas["entt-consumer-id-insure.seed"]>>,
  Holds<Same<InsureSeed<"gtrn-stnd-1111">, Schemas["product.gtrn-stnd-1111.insure"]>>,
  Holds<Same<Answer<StatusAnswerBody>, AnswerOf<"waitForDecision">>>,
  // The administrator's lists name each entry's partner.
  Holds<Same<AdminConsumerEntry["partnerId"], string>>,
  Holds<Same<AdminTransactionEntry["partnerId"], string>>,
];

const transitFacts = {
  goodsType: "elct",
  goodsDscrptn: "Laptops and phones",
  goodsValue: 2_500_000,
  dprtrDateTime: "2026-01-16 08:00:00",
  estmtdArrvlDateTime: "2026-01-17 18:00:00",
  proformaInvoice: "INV-2026-0042",
  proformaDate: "2026-01-15",
} as const;
const vehicleFacts = fixtureVehicle();

/** Seeds the types refuse (each call is a compile error) and the service's schemas refuse too, naming `field`. */
const refused: Record<string, { field: string; call: (client: PartnerClient) => Promise<unknown> }> = {
  "registerConsumer: phoneNo as a number": {
    field: "phoneNo",
    // @ts-expect-error phoneNo is a string ("+234…"), not a number
    call: (client) => client.registerConsumer({ class: "h", name: { first: "Ada" }, phoneNo: 2348031234567 }),
  },
  "registerConsumer: an unknown class": {
    field: "class",
    // @ts-expect-error class is "h" or "o"
    call: (client) => client.registerConsumer({ class: "x", name: { first: "Ada" } }),
  },
  "quote: a duration the product does not sell": {
    field: "insrncDrtn",
    // @ts-expect-error vhcl-tprt-1111 is sold for 7d, 1m, 3m, 6m or 1y
    call: (client) => client.quote("vhcl-tprt-1111", { insrncDrtn: "2y" }),
  },
  "quote: loanAmount as a string": {
    field: "loanAmount",
    // @ts-expect-error loanAmount is a number (kobo), not a string
    call: (client) => client.quote("crlt-sme1-1111", { loanAmount: "50000000" }),
  },
  "insure: year as a number": {
    field: "addtnlFact.year",
    call: (client) =>
      // @ts-expect-error year is a string of 4 digits
      client.insure("c0ffee", { ctgry: "vhcl", type: "tprt", pckg: "1111", id: "TX1", insrncDrtn: "1y", addtnlFact: { ...vehicleFacts, year: 2018 } }),
  },
  "insure: a voyage stop that is neither origin nor destination": {
    field: "addtnlFact.voyage.0",
    call: (client) =>
      client.insure("c0ffee", {
        ctgry: "gtrn",
        type: "stnd",
        pckg: "1111",
        id: "TX2",
        // @ts-expect-error each voyage entry is { origin } or { destination }
        addtnlFact: { ...transitFacts, voyage: [{ from: "Lagos" }, { destination: "Abuja" }] },
      }),
  },
  "listTransactions: limit as a string": {
    field: "limit",
    // @ts-expect-error limit is a number
    call: (client) => client.listTransactions({ limit: "20" }),
  },
  "listTransactions: an unknown status": {
    field: "status",
    // @ts-expect-error status is one letter: p, a, d or l
    call: (client) => client.listTransactions({ status: "approved" }),
  },
  "topUpWallet: amount as a string": {
    field: "amount",
    // @ts-expect-error amount is a number of naira
    call: (client) => client.topUpWallet({ amount: "5000", reference: "topup-1" }),
  },
  "approve: an unknown decision": {
    field: "status",
    // @ts-expect-error status is a or d
    call: (client) => client.approve("c0ffee", "crlt-psnl-1111", "TX3", { status: "x" }),
  },
  "registerWebhook: an unknown event type": {
    field: "events.0",
    // @ts-expect-error events are the service's event types
    call: (client) => client.registerWebhook({ url: "https://partner.example.ng/hooks", events: ["policy.created"] }),
  },
};

/** Seeds the types accept (defaults omitted, product-specific fields) and the service's schemas accept. */
const accepted: Record<string, (client: PartnerClient) => Promise<unknown>> = {
  registerConsumer: (client) =>
    client.registerConsumer({ class: "h", name: { first: "Ada", last: "Obi" }, phoneNo: "+2348031234567", dob: { date: "1990-04-12" } }),
  "quote: the product's own fields": (client) => client.quote("ltix-stnd-1111", { insrncDrtn: "7d", destination: "GB", planType: "individual" }),
  "insure: transit, with its voyage": (client) =>
    client.insure("c0ffee", {
      ctgry: "gtrn",
      type: "stnd",
      pckg: "1111",
      id: "TX4",
      addtnlFact: { ...transitFacts, voyage: [{ origin: "Lagos" }, { destination: "Abuja" }] },
    }),
  "listTransactions: limit has a default": (client) => client.listTransactions({ status: "a" }),
  "approve: status has a default": (client) => client.approve("c0ffee", "crlt-psnl-1111", "TX5", {}),
  "checkVehicle: search_type has a default": (client) => client.checkVehicle({ value: "ABC123DE" }),
};

// A product code the generated types do not know yet (the service added it since) can still be quoted, with any fields.
export const quoteNewProduct = (client: PartnerClient, code: string) => client.quote(code, { anyField: 1 });

/** The zod schema the service validates a request's seed with: the command's, or its product's. */
function seedSchemaOf(cmmnd: string, seed: unknown): z.ZodType {
  const matched = commandRegistry.match(cmmnd);
  if (!matched) throw new Error(`no command matches ${cmmnd}`);
  const { definition } = matched;
  const schema = definition.seed ?? definition.documentedSeed;
  if (schema) return schema;
  const s = seed as { ctgry?: string; type?: string; pckg?: string };
  const variant = definition.seedVariants?.().find((v) => (v.cmmnd ? v.cmmnd === cmmnd : v.key === `${s.ctgry}-${s.type}-${s.pckg}`));
  if (!variant) throw new Error(`${cmmnd}: no seed schema for this product`);
  return variant.seed;
}

async function sentSeed(call: (client: PartnerClient) => Promise<unknown>) {
  const { client, sent } = recordingClient();
  await call(client);
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

describe("the seed types refuse what the service refuses", () => {
  for (const [name, { field, call }] of Object.entries(refused))
    test(name, async () => {
      const { cmmnd, seed } = await sentSeed(call);
      const result = seedSchemaOf(cmmnd, seed).safeParse(seed ?? {});
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((issue) => issue.path.join("."))).toContain(field);
    });
});

describe("and accept what it accepts", () => {
  for (const [name, call] of Object.entries(accepted))
    test(name, async () => {
      const { cmmnd, seed } = await sentSeed(call);
      const result = seedSchemaOf(cmmnd, seed).safeParse(seed ?? {});
      expect(result.error?.issues ?? []).toEqual([]);
    });
});
