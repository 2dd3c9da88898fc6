/**
 * The wire types of the commands (spec 2–4, docs/commands.md): every seed and answer is an alias
 * into `generated.ts`, which `npm run client:types` generates from the service's OpenAPI document
 * (GET /openapi.json), itself made from the zod schemas the service validates with — one source of
 * truth. The few types written by hand here have no schema of their own; each says why.
 *
 * The answer types (`…AnswerBody`, entries) are the command's fields without `exctnFdbck`: the
 * methods of the client return `Answer<…>`, the whole answer of a successful (75) command.
 */
import type { components } from "./generated.js";

/** Every schema of the service's OpenAPI document, by name: `Schemas["prfl-entity.seed"]`, `Schemas["product.vhcl-tprt-1111.quote"]` … */
export type Schemas = components["schemas"];

/** The name of a command's answer schema in the OpenAPI document (`prfl-entity.response` …). */
export type AnswerSchemaName = Extract<keyof Schemas, `${string}.response`>;

/** The fields of a command's answer, without `exctnFdbck` (which {@link Answer} adds). */
export type AnswerBody<Name extends AnswerSchemaName> = Omit<Schemas[Name], "exctnFdbck">;

/** exctnFdbck (spec 2.2): `id` 75 success, 35 at capacity, 55 error; `id_v4` the HTTP-equivalent status; `elbrtn` the explanation, on errors. */
export type ExecutionFeedback = Schemas["ExecutionFeedback"];

// Hand-written: a generic wrapper, not a schema of its own.
/** An answer of the command endpoint: the command's fields plus exctnFdbck. */
export type Answer<T = Record<string, unknown>> = T & { exctnFdbck: ExecutionFeedback };

/** A 55/429 carries `retryAfter` (seconds). */
export type RefusalFields = Pick<Schemas["Refusal"], "retryAfter">;

// Hand-written: JSON Schema has no date type, so the generated fields are plain strings; these names document the format.
/** `YYYY-MM-DD`. */
export type IsoDate = string;
/** `YYYY-MM-DD HH:MM:SS`, Nigerian time (UTC+1). */
export type WatTimestamp = string;

// --- products ----------------------------------------------------------------------------------

/** The product codes the service offers (one `product.<code>.quote` schema each), e.g. `vhcl-tprt-1111`. */
export type KnownProductCode = keyof Schemas extends infer Name ? (Name extends `product.${infer Code}.quote` ? Code : never) : never;

/** `<ctgry>-<type>-<pckg>` (spec 1): a known code, or any other code the service may add (still a string). */
export type ProductCode = KnownProductCode | (string & {});

/** The known product codes of a family: `ProductFamily<"vhcl">` is `"vhcl-tprt-1111" | "vhcl-cmpr-1111"`. */
export type ProductFamily<Ctgry extends string> = Extract<KnownProductCode, `${Ctgry}-${string}`>;

/** A field's type across a union of objects, from the members that have it. */
type FieldOf<T, Key extends PropertyKey> = T extends { [K in Key]: infer V } ? V : never;

/** Cover durations (`insrncDrtn`) of every product; each product's seeds accept only its own. */
export type Duration = FieldOf<InsureSeed, "insrncDrtn">;

/** Policy status (spec 2.6, 3): p pending, a approved, d declined, l lapsed (financed policies). */
export type PolicyStatus = StatusAnswerBody["status"];

// --- list commands -----------------------------------------------------------------------------

/** The seed of a plain list: `limit` 1..100 (default 20), `cursor` the previous page's `nextCursor`. */
export type ListSeed = Schemas["dump-entt-cstmrs.seed"];

// Hand-written: a generic shape every list answer has (`paginate` walks any of them).
export interface Page<T> {
  list: T[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

// --- prfl entity -------------------------------------------------------------------------------

/** Consumer seed (spec 2.3). Omit optional fields entirely: blank or null values are refused (406). */
export type ConsumerSeed = Schemas["prfl-entity.seed"];

/** `id`: 32 hex characters, the consumer id to store and reuse; `id_uuid`: the same id, hyphenated. */
export type RegisterConsumerAnswerBody = AnswerBody<"prfl-entity.response">;

/** A consumer in `dump entt_*CSTMRS`. */
export type ConsumerEntry = AnswerBody<"dump-entt-cstmrs.response">["list"][number];

/** A consumer in the administrator's `dump entt_*CSTMRS_ADMIN`: with its `partnerId`. */
export type AdminConsumerEntry = AnswerBody<"dump-entt-cstmrs-admin.response">["list"][number];

// --- dump ipck_<product_code>*PRMM -------------------------------------------------------------

/** Quote seed (spec 2.4): the fields of product `P`; any fields for a code this client does not know yet. */
export type QuoteSeed<P extends ProductCode = KnownProductCode> = `product.${P}.quote` extends infer Name
  ? Name extends keyof Schemas
    ? Schemas[Name]
    : Record<string, unknown>
  : never;

/** `prmm`: whole naira, except credit life in kobo. */
export type QuoteAnswerBody = AnswerBody<"dump-ipck-product-code-prmm.response">;

// --- entt_<consumer_id>: insure ----------------------------------------------------------------

/** Policy request (spec 2.5) for product `P`; by default any product's, told apart by `ctgry` and `type`. `id` is the transaction reference. */
export type InsureSeed<P extends KnownProductCode = KnownProductCode> = Schemas[`product.${P}.insure`];

/** `addtnlFact` of product `P` (any product's by default), with the optional `webHook`. */
export type AdditionalFacts<P extends KnownProductCode = KnownProductCode> = InsureSeed<P>["addtnlFact"];

/** Vehicle (vhcl) facts; `vhclValueForInsrnc` and `proofOfOwnrsh` for comprehensive only. */
export type VehicleFacts = AdditionalFacts<ProductFamily<"vhcl">>;
/** Phone and laptop (phnn, lapt): `uIdnt` is the IMEI or serial number. */
export type DeviceFacts = AdditionalFacts<ProductFamily<"phnn"> | ProductFamily<"lapt">>;
export type TravelFacts = AdditionalFacts<ProductFamily<"ltix">>;
export type TransitFacts = AdditionalFacts<ProductFamily<"gtrn">>;
export type MarineFacts = AdditionalFacts<ProductFamily<"mrnn"> | ProductFamily<"mexx">>;
/** Credit life: `loanAmount` in kobo. */
export type CreditLifeFacts = AdditionalFacts<ProductFamily<"crlt">>;
export type LoanGuarantyFacts = AdditionalFacts<ProductFamily<"lrgg">>;
export type HealthFacts = AdditionalFacts<ProductFamily<"hlth">>;
/** All risk (allr) and fire and burglary (firb). */
export type PropertyFacts = AdditionalFacts<ProductFamily<"allr"> | ProductFamily<"firb">>;

/** `id` is the stored transaction reference: use it for status checks and claims. */
export type InsureAnswerBody = AnswerBody<"entt-consumer-id-insure.response">;

/** `tmstmp` is the time of the last status change. */
export type StatusAnswerBody = AnswerBody<"dump-entt-consumer-id-insr-product-code-tx-id-status.response">;

/** What a policy shows once decided (spec 2.6), in status and insure answers: what `certificate()` reads. */
export type CertificateFields = Pick<StatusAnswerBody, "statusNote" | "policyNo" | "crtfct" | "crtfctType" | "certUrl">;

// --- appr (administrator) ----------------------------------------------------------------------

/** `status` a (default) or d; `statusNote` required to decline. */
export type ReviewSeed = Schemas["appr-entt-consumer-id-insr-product-code-tx-id.seed"];
export type ReviewAnswerBody = AnswerBody<"appr-entt-consumer-id-insr-product-code-tx-id.response">;

// --- the policy lifecycle (docs/lifecycle.md): cncl, rinst, rnew, ndrs and their previews ------

/** `id` is your reference for the cancellation (a repeat with it returns the first answer); `effectiveDate` today unless later. */
export type CancelSeed = Schemas["cncl-entt-consumer-id-insr-product-code-tx-id.seed"];
export type CancellationReason = CancelSeed["reason"];
/** The policy, now `c`, with its `cancellation`: the refund to the wallet and the rule that gave it. */
export type CancelAnswerBody = AnswerBody<"cncl-entt-consumer-id-insr-product-code-tx-id.response">;
/** The figures `cncl` would store from that date, changing nothing. */
export type CancellationQuoteAnswerBody = AnswerBody<"dump-entt-consumer-id-insr-product-code-tx-id-refund.response">;
/** `id` is your reference for the reinstatement (a repeat with it returns the first answer). */
export type ReinstateSeed = Schemas["rinst-entt-consumer-id-insr-product-code-tx-id.seed"];
/** The policy back in force, with what was `paid` and the `gap` without cover, if any. */
export type ReinstateAnswerBody = AnswerBody<"rinst-entt-consumer-id-insr-product-code-tx-id.response">;
/** `id` is the new policy's transaction reference, as insure's `seed.id`. */
export type RenewSeed = Schemas["rnew-entt-consumer-id-insr-product-code-tx-id.seed"];
/** The new policy (`id`) and the one it `renews`: decided and paid as insure; its status by its own reference. */
export type RenewAnswerBody = AnswerBody<"rnew-entt-consumer-id-insr-product-code-tx-id.response">;
export type AutoRenewAnswerBody = AnswerBody<"rnew-entt-consumer-id-insr-product-code-tx-id-auto.response">;
/** `id` is your reference for the change; `addtnlFact` only the fields that change (each product's list: docs/lifecycle.md). */
export type EndorseSeed = Schemas["ndrs-entt-consumer-id-insr-product-code-tx-id.seed"];
/** The policy with its `endorsement`: applied at once (a new certificate `version`), or pending an administrator's review. */
export type EndorseAnswerBody = AnswerBody<"ndrs-entt-consumer-id-insr-product-code-tx-id.response">;
export type EndorsementQuoteSeed = Schemas["dump-entt-consumer-id-insr-product-code-tx-id-endorse.seed"];
/** What `ndrs` would change and charge (or give back), and whether an administrator would review it; changes nothing. */
export type EndorsementQuoteAnswerBody = AnswerBody<"dump-entt-consumer-id-insr-product-code-tx-id-endorse.response">;

// --- dump entt_* -------------------------------------------------------------------------------

export type TransactionListSeed = Schemas["dump-entt.seed"];
/** A policy in `dump entt_*`. */
export type TransactionEntry = AnswerBody<"dump-entt.response">["list"][number];
/** A policy in the administrator's `dump entt_*ADMIN`: with its `partnerId`. */
export type AdminTransactionEntry = AnswerBody<"dump-entt-admin.response">["list"][number];

// --- dump hlth_*HSPTLS -------------------------------------------------------------------------

export type HospitalSeed = Schemas["dump-hlth-hsptls.seed"];
export type Hospital = AnswerBody<"dump-hlth-hsptls.response">["list"][number];

// --- set env_* ---------------------------------------------------------------------------------

/** `mode`: the account toggle; `keyMode`: the mode the calling key runs in (test and live keys are pinned). */
export type ModeAnswerBody = AnswerBody<"set-env-live.response">;

// --- enrichment --------------------------------------------------------------------------------

export type VehicleCheckSeed = Schemas["enrch-niid-vehicle.seed"];
export type VehicleCheckAnswerBody = AnswerBody<"enrch-niid-vehicle.response">;
export type VinSeed = Schemas["enrch-vin-vehicle.seed"];
export type VinAnswerBody = AnswerBody<"enrch-vin-vehicle.response">;

// --- wallet topup ------------------------------------------------------------------------------

/** `amount` naira (> 0, at most two decimals); a repeat with the same `reference` returns the first answer. */
export type TopUpSeed = Schemas["wallet-topup.seed"];
export type TopUpAnswerBody = AnswerBody<"wallet-topup.response">;

// --- claims ------------------------------------------------------------------------------------

/** A claim with `reference` is safe to repeat: a repeat returns the first claim. */
export type ClaimSubmitSeed = Schemas["claim-submit.seed"];
export type ClaimSubmitAnswerBody = AnswerBody<"claim-submit.response">;
/** A claim in `claim list`: everything but its documents and history. */
export type ClaimEntry = AnswerBody<"claim-list.response">["list"][number];
export type ClaimStatus = ClaimEntry["status"];
/** A claim with its documents and history (`claim status`, `claim withdraw`). */
export type ClaimDetail = AnswerBody<"claim-status.response">;
export type ClaimListSeed = Schemas["claim-list.seed"];
export type ClaimWithdrawSeed = Schemas["claim-withdraw.seed"];
export type ClaimReviewSeed = Schemas["claim-review.seed"];
/** The reviewed claim, with its `partnerId` (administrator). */
export type ClaimReviewAnswerBody = AnswerBody<"claim-review.response">;
export type ClaimRespondSeed = Schemas["claim-respond.seed"];
export type ClaimAssessSeed = Schemas["claim-assess.seed"];
/** The assessed claim with the assessment: assessor, reserve, checklist (administrator). */
export type ClaimAssessAnswerBody = AnswerBody<"claim-assess.response">;
export type ClaimPayeeSeed = Schemas["claim-payee.seed"];
export type ClaimVoucherSeed = Schemas["claim-voucher.seed"];
/** A discharge voucher with its PDF (base64 in `voucherDocument`). */
export type ClaimVoucherAnswerBody = AnswerBody<"claim-voucher.response">;
export type ClaimAcceptSeed = Schemas["claim-accept.seed"];
export type ClaimLetterSeed = Schemas["claim-letter.seed"];
/** A rejected claim's letter (base64 in `letterDocument`). */
export type ClaimLetterAnswerBody = AnswerBody<"claim-letter.response">;

// --- complaints --------------------------------------------------------------------------------

export type ComplaintFileSeed = Schemas["complaint-file.seed"];
/** The complaint as filed: its number, status and deadlines. */
export type ComplaintFileAnswerBody = AnswerBody<"complaint-file.response">;
/** A complaint with its history, what was added and, once resolved, its outcome, redress and letter. */
export type ComplaintDetail = AnswerBody<"complaint-status.response">;
export type ConsumerLinkAnswerBody = AnswerBody<"consumer-link.response">;

// --- premium financing -------------------------------------------------------------------------

export type FinanceLoanSeed = Schemas["payment-financeloan.seed"];
export type Frequency = FinanceLoanSeed["frequency"];
export type FinanceLoanAnswerBody = AnswerBody<"payment-financeloan.response">;
/** A financing plan's terms, as `payment financeLoan` and `payment status` answer them. */
export type PlanTerms = Omit<FinanceLoanAnswerBody, "schedule">;
export type PlanStatus = PlanTerms["status"];
/** A repeat with the same `reference` returns the first answer. */
export type InstallmentSeed = Schemas["payment-recordinstallment.seed"];
export type InstallmentAnswerBody = AnswerBody<"payment-recordinstallment.response">;
export type PlanStatusAnswerBody = AnswerBody<"payment-status.response">;
export type RunLapseSeed = Schemas["payment-runlapse.seed"];
export type RunLapseAnswerBody = AnswerBody<"payment-runlapse.response">;
/** The monthly statement (docs/commissions.md): figures in naira, reconciling to the wallet ledger. */
export type WalletStatementAnswerBody = AnswerBody<"wallet-statement.response">;

// --- webhooks ----------------------------------------------------------------------------------

export type WebhookRegisterSeed = Schemas["webhook-register.seed"];
export type WebhookEventType = NonNullable<WebhookRegisterSeed["events"]>[number];
/** An endpoint as `webhook list` shows it: without its secret. */
export type WebhookEndpoint = AnswerBody<"webhook-list.response">["list"][number];
/** The registered endpoint with its `whsec_` secret, shown this once. */
export type WebhookRegisterAnswerBody = AnswerBody<"webhook-register.response">;
export type WebhookUpdateSeed = Schemas["webhook-update.seed"];
/** The endpoint; with `secret` after `rotateSecret`. */
export type WebhookUpdateAnswerBody = AnswerBody<"webhook-update.response">;
export type WebhookDeleteAnswerBody = AnswerBody<"webhook-delete.response">;
export type WebhookDeliveriesSeed = Schemas["webhook-deliveries.seed"];
/** A delivery with every attempt (`webhook deliveries`, `replay`, `test`). */
export type WebhookDelivery = AnswerBody<"webhook-deliveries.response">["list"][number];
/** `{ rotate: true }` replaces the default secret. */
export type WebhookSecretSeed = Schemas["webhook-secret.seed"];
export type WebhookSecretAnswerBody = AnswerBody<"webhook-secret.response">;
