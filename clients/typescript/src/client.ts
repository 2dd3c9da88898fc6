import { commands, isRegistryCommand, isSafeToRepeat } from "./commands.js";
import { AtCapacity, CommandRefused, NetworkError, PartnerClientError, RateLimited, RequestTimeout, UnexpectedAnswer } from "./errors.js";
import { abortReason, jittered, type PollInterval, pollIntervalFor, sleep } from "./polling.js";
import type {
  AdminConsumerEntry,
  AdminTransactionEntry,
  Answer,
  AutoRenewAnswerBody,
  CancelAnswerBody,
  CancellationQuoteAnswerBody,
  CancelSeed,
  CertificateFields,
  ClaimAcceptSeed,
  ClaimAssessAnswerBody,
  ClaimAssessSeed,
  ClaimDetail,
  ClaimEntry,
  ClaimLetterAnswerBody,
  ClaimLetterSeed,
  ClaimListSeed,
  ClaimPayeeSeed,
  ClaimRespondSeed,
  ClaimReviewAnswerBody,
  ClaimReviewSeed,
  ClaimSubmitAnswerBody,
  ClaimSubmitSeed,
  ClaimVoucherAnswerBody,
  ClaimVoucherSeed,
  ClaimWithdrawSeed,
  ComplaintDetail,
  ComplaintFileAnswerBody,
  ComplaintFileSeed,
  ConsumerEntry,
  ConsumerLinkAnswerBody,
  ConsumerSeed,
  EndorseAnswerBody,
  EndorsementQuoteAnswerBody,
  EndorsementQuoteSeed,
  EndorseSeed,
  FinanceLoanAnswerBody,
  FinanceLoanSeed,
  Hospital,
  HospitalSeed,
  InstallmentAnswerBody,
  InstallmentSeed,
  InsureAnswerBody,
  InsureSeed,
  IsoDate,
  ListSeed,
  ModeAnswerBody,
  Page,
  PlanStatusAnswerBody,
  ProductCode,
  QuoteAnswerBody,
  QuoteSeed,
  RegisterConsumerAnswerBody,
  ReinstateAnswerBody,
  ReinstateSeed,
  RenewAnswerBody,
  RenewSeed,
  ReviewAnswerBody,
  ReviewSeed,
  RunLapseAnswerBody,
  RunLapseSeed,
  Schemas,
  StatusAnswerBody,
  TopUpAnswerBody,
  TopUpSeed,
  TransactionEntry,
  TransactionListSeed,
  VehicleCheckAnswerBody,
  VehicleCheckSeed,
  VinAnswerBody,
  VinSeed,
  WalletStatementAnswerBody,
  WebhookDeleteAnswerBody,
  WebhookDeliveriesSeed,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookRegisterAnswerBody,
  WebhookRegisterSeed,
  WebhookSecretAnswerBody,
  WebhookSecretSeed,
  WebhookUpdateAnswerBody,
  WebhookUpdateSeed,
} from "./types.js";

/** What the client needs of `fetch`. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface Credentials {
  /** userInfo.id: the partner id (UUID). */
  partnerId: string;
  /** userInfo.athrzt.id: the authorization (key) id (UUID). */
  keyId: string;
  /** userInfo.athrzt.key: the key itself (base64, padding included). Test keys run in the sandbox, live keys in production. */
  key: string;
}

/** The spec's retry policy (sections 7 and 8), with the numbers it names as defaults. */
export interface RetryPolicy {
  /** Waits before repeating a request answered 35 (at capacity, nothing stored): 2 s, 4 s, 8 s, then give up. */
  capacityDelaysMs?: readonly number[];
  /** How many times a 55/429 is retried (after `retryAfter`, or 1–2 s) before {@link RateLimited} is thrown: 3. */
  rateLimitRetries?: number;
  /** The wait after a 429 that carries no `retryAfter`: uniformly 1–2 s. */
  rateLimitFallback?: PollInterval;
  /** A 429 asking for a longer wait than this is thrown at once: 60 s. */
  maxRateLimitWaitMs?: number;
  /** Waits before repeating a command that is safe to repeat after a network error or timeout: 1 s, 3 s. */
  networkDelaysMs?: readonly number[];
}

export interface RetryEvent {
  command: string;
  reason: "capacity" | "rate-limit" | "network";
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The answer (capacity, rate limit) or the error (network). */
  answer?: Answer;
  error?: unknown;
}

export interface ClientOptions extends Credentials {
  /** The command endpoint, `POST {base_url}`: e.g. `https://api.example.ng/` or `http://localhost:3000/`. */
  baseUrl: string;
  /** Time allowed for one request (connection, answer and body): 30 s. */
  timeoutMs?: number;
  /** Time allowed for a vehicle-registry check (`enrch niid_vehicle`; the registry takes 12–17 s for a first lookup): 45 s. */
  registryTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Told before every retry (logging, metrics). */
  onRetry?: (event: RetryEvent) => void;
  /** The fetch to use (a proxy agent, instrumentation); the global one by default. */
  fetch?: Fetch;
}

export interface CallOptions {
  /** Abort the call (also while it waits to retry); it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** This call's timeout per request, instead of the client's. */
  timeoutMs?: number;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Every status answer, the first included (the status may have changed in between, or not). */
  onUpdate?: (answer: Answer<StatusAnswerBody>) => void;
  /** Override the product family's interval (spec 3's guidance; see POLLING_GUIDANCE). */
  interval?: PollInterval;
  /** Give up with {@link DecisionTimeout} after this long (default: wait until decided or aborted). */
  timeoutMs?: number;
  /** Network errors, capacity and rate-limit exhaustion in a row tolerated before giving up: 5. */
  maxConsecutiveErrors?: number;
}

/** The policy was still pending when `waitForDecision`'s `timeoutMs` ran out. */
export class DecisionTimeout extends PartnerClientError {
  constructor(
    command: string,
    readonly last: Answer<StatusAnswerBody> | undefined,
    timeoutMs: number,
  ) {
    super(`${command}: no decision within ${timeoutMs} ms (status ${last?.status ?? "unknown"})`, command);
  }
}

/** The statuses after which a policy does not change by itself (spec 3): approved, declined, lapsed. */
export const FINAL_STATUSES: readonly string[] = ["a", "d", "l"];

export interface Certificate {
  bytes: Uint8Array;
  type: "pdf" | "docx" | "jpg";
  /** `crtfct` (inline in the answer) or `certUrl` (downloaded). */
  source: "inline" | "hosted";
}

const DEFAULTS = {
  timeoutMs: 30_000,
  registryTimeoutMs: 45_000,
  capacityDelaysMs: [2_000, 4_000, 8_000],
  rateLimitRetries: 3,
  rateLimitFallback: { minMs: 1_000, maxMs: 2_000 },
  maxRateLimitWaitMs: 60_000,
  networkDelaysMs: [1_000, 3_000],
} as const;

const INSURE = /^entt_([^:\s|*]+)\s*:\s*insure$/;

/** A failure to get an answer, before the retry loop decides what it means. */
class TransportFailure {
  constructor(
    readonly kind: "network" | "timeout" | "unexpected",
    readonly message: string,
    readonly cause?: unknown,
    readonly httpStatus = 0,
    readonly body = "",
  ) {}
}

/** The transaction reference as the service stores it: a UUID in either form → lower-case hyphenated; else as sent. */
export function storedReference(reference: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reference)) return reference.toLowerCase();
  if (/^[0-9a-f]{32}$/i.test(reference)) {
    const v = reference.toLowerCase();
    return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20)}`;
  }
  return reference;
}

/**
 * The insurance partner command service: one method per command (docs/commands.md), each
 * sending the envelope of spec 2.1 to `POST {base_url}` and returning the answer of a success
 * (exctnFdbck id 75). Refusals throw {@link CommandRefused}; the spec's retries are built in.
 */
export class PartnerClient {
  private readonly fetch: Fetch;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    for (const field of ["baseUrl", "partnerId", "keyId", "key"] as const)
      if (typeof options[field] !== "string" || !options[field]) throw new TypeError(`PartnerClient: ${field} is required`);
    if (/\s/.test(options.key)) throw new TypeError("PartnerClient: the key must not contain spaces or line breaks (spec 5.4)");
    this.options = options;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  // --- consumers, quotes, policies -------------------------------------------------------------

  /** `prfl entity`: register a consumer (or update the one registered with the same e-mail). Store the returned `id`. */
  registerConsumer(seed: ConsumerSeed, options?: CallOptions): Promise<Answer<RegisterConsumerAnswerBody>> {
    return this.command<RegisterConsumerAnswerBody>(commands.registerConsumer(), seed, options);
  }

  /** `dump ipck_<product_code>*PRMM`: the premium (whole naira; credit life in kobo). The seed holds the product's own fields. */
  quote<P extends ProductCode>(productCode: P, seed: QuoteSeed<P>, options?: CallOptions): Promise<Answer<QuoteAnswerBody>> {
    return this.command<QuoteAnswerBody>(commands.quote(productCode), seed, options);
  }

  /**
   * `entt_<consumer_id>: insure`: issue a policy after collecting payment. `seed.id` is your unique
   * transaction reference; the answer's `id` is the stored form to use for status and claims.
   * Status `a` in test mode; in live mode usually `p` (then {@link waitForDecision}).
   */
  insure(consumerId: string, seed: InsureSeed, options?: CallOptions): Promise<Answer<InsureAnswerBody>> {
    return this.command<InsureAnswerBody>(commands.insure(consumerId), seed, options);
  }

  /** `dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS`: status and certificate of a policy. */
  status(consumerId: string, productCode: ProductCode, txId: string, options?: CallOptions): Promise<Answer<StatusAnswerBody>> {
    return this.command<StatusAnswerBody>(commands.status(consumerId, productCode, txId), undefined, options);
  }

  /** `appr entt_…|insr_…` (administrator account only): approve a pending policy, or decline it with `{ status: "d", statusNote }`. */
  approve(consumerId: string, productCode: ProductCode, txId: string, seed?: ReviewSeed, options?: CallOptions): Promise<Answer<ReviewAnswerBody>> {
    return this.command<ReviewAnswerBody>(commands.approve(consumerId, productCode, txId), seed, options);
  }

  /** `dump entt_*`: this partner's transactions, newest first. */
  listTransactions(seed: TransactionListSeed = {}, options?: CallOptions): Promise<Answer<Page<TransactionEntry>>> {
    return this.command<Page<TransactionEntry>>(commands.listTransactions(), seed, options);
  }

  /** `dump entt_*ADMIN` (administrator): every partner's transactions. */
  listAllTransactions(seed: TransactionListSeed = {}, options?: CallOptions): Promise<Answer<Page<AdminTransactionEntry>>> {
    return this.command<Page<AdminTransactionEntry>>(commands.listAllTransactions(), seed, options);
  }

  /** `dump entt_*CSTMRS`: this partner's consumers, newest first. */
  listConsumers(seed: ListSeed = {}, options?: CallOptions): Promise<Answer<Page<ConsumerEntry>>> {
    return this.command<Page<ConsumerEntry>>(commands.listConsumers(), seed, options);
  }

  /** `dump entt_*CSTMRS_ADMIN` (administrator): every partner's consumers. */
  listAllConsumers(seed: ListSeed = {}, options?: CallOptions): Promise<Answer<Page<AdminConsumerEntry>>> {
    return this.command<Page<AdminConsumerEntry>>(commands.listAllConsumers(), seed, options);
  }

  /** `dump hlth_*HSPTLS`: the health insurers' hospitals (optionally one insurer's). */
  hospitals(seed: HospitalSeed = {}, options?: CallOptions): Promise<Answer<{ list: Hospital[] }>> {
    return this.command<{ list: Hospital[] }>(commands.hospitals(), seed, options);
  }

  /** `set env_live` / `set env_test`: the account toggle (legacy keys follow it; test and live keys stay pinned). */
  setMode(mode: "live" | "test", options?: CallOptions): Promise<Answer<ModeAnswerBody>> {
    return this.command<ModeAnswerBody>(commands.setMode(mode), undefined, options);
  }

  // --- the policy lifecycle (docs/lifecycle.md) ---------------------------------------------------

  /**
   * `cncl entt_…|insr_…`: cancel an approved policy from `seed.effectiveDate` (today unless a later
   * day within the cover): status `c`, the product's refund to the wallet, a financing plan closed.
   * A repeat with the same `seed.id` returns the first answer.
   */
  cancel(consumerId: string, productCode: ProductCode, txId: string, seed: CancelSeed, options?: CallOptions): Promise<Answer<CancelAnswerBody>> {
    return this.command<CancelAnswerBody>(commands.cancel(consumerId, productCode, txId), seed, options);
  }

  /** `dump entt_…|insr_…*REFUND`: what cancelling from `effectiveDate` (today when omitted) would give back; changes nothing. */
  quoteCancellation(
    consumerId: string,
    productCode: ProductCode,
    txId: string,
    effectiveDate?: IsoDate,
    options?: CallOptions,
  ): Promise<Answer<CancellationQuoteAnswerBody>> {
    const seed = (effectiveDate ? { effectiveDate } : {}) satisfies Schemas["dump-entt-consumer-id-insr-product-code-tx-id-refund.seed"];
    return this.command<CancellationQuoteAnswerBody>(commands.quoteCancellation(consumerId, productCode, txId), seed, options);
  }

  /**
   * `rinst entt_…|insr_…`: put a cancelled policy back in force within 30 days of the cancellation
   * taking effect (its refund paid back from the wallet), or a lapsed one within 30 days of the lapse.
   * A repeat with the same `seed.id` returns the first answer.
   */
  reinstate(consumerId: string, productCode: ProductCode, txId: string, seed: ReinstateSeed, options?: CallOptions): Promise<Answer<ReinstateAnswerBody>> {
    return this.command<ReinstateAnswerBody>(commands.reinstate(consumerId, productCode, txId), seed, options);
  }

  /**
   * `rnew entt_…|insr_…`: renew a policy in its last 60 days into a new one under `seed.id`, its
   * cover continuing from the day after, decided and paid as insure: follow the answer's `id` with
   * {@link status} or {@link waitForDecision}. A repeat with the same `seed.id` returns the first answer.
   */
  renew(consumerId: string, productCode: ProductCode, txId: string, seed: RenewSeed, options?: CallOptions): Promise<Answer<RenewAnswerBody>> {
    return this.command<RenewAnswerBody>(commands.renew(consumerId, productCode, txId), seed, options);
  }

  /** `rnew entt_…|insr_…*AUTO`: renew the policy automatically from the wallet a week before its cover ends (`true`), or no longer (`false`). */
  setAutoRenew(consumerId: string, productCode: ProductCode, txId: string, enabled: boolean, options?: CallOptions): Promise<Answer<AutoRenewAnswerBody>> {
    const seed = { enabled } satisfies Schemas["rnew-entt-consumer-id-insr-product-code-tx-id-auto.seed"];
    return this.command<AutoRenewAnswerBody>(commands.setAutoRenew(consumerId, productCode, txId), seed, options);
  }

  /**
   * `ndrs entt_…|insr_…`: change an approved policy's facts mid-term (an endorsement): applied at
   * once as a new certificate version, or pending where an administrator reviews the product's live
   * changes; the premium difference is charged or given back. A repeat with the same `seed.id`
   * returns the first answer.
   */
  endorse(consumerId: string, productCode: ProductCode, txId: string, seed: EndorseSeed, options?: CallOptions): Promise<Answer<EndorseAnswerBody>> {
    return this.command<EndorseAnswerBody>(commands.endorse(consumerId, productCode, txId), seed, options);
  }

  /** `dump entt_…|insr_…*ENDORSE`: what {@link endorse} with these facts would change and cost now; changes nothing. */
  quoteEndorsement(
    consumerId: string,
    productCode: ProductCode,
    txId: string,
    seed: EndorsementQuoteSeed,
    options?: CallOptions,
  ): Promise<Answer<EndorsementQuoteAnswerBody>> {
    return this.command<EndorsementQuoteAnswerBody>(commands.quoteEndorsement(consumerId, productCode, txId), seed, options);
  }

  // --- enrichment (activated accounts) ----------------------------------------------------------

  /** `enrch niid_vehicle`: vehicle-registry check by plate (default) or policy number; allowed `registryTimeoutMs`. */
  checkVehicle(seed: VehicleCheckSeed, options?: CallOptions): Promise<Answer<VehicleCheckAnswerBody>> {
    return this.command<VehicleCheckAnswerBody>(commands.checkVehicle(), seed, options);
  }

  /** `enrch vin_vehicle`: decode a 17-character VIN. */
  decodeVin(vin: string, options?: CallOptions): Promise<Answer<VinAnswerBody>> {
    return this.command<VinAnswerBody>(commands.decodeVin(), { vin } satisfies VinSeed, options);
  }

  // --- claims ------------------------------------------------------------------------------------

  /** `claim submit`: a claim on an approved policy (by its transaction reference). Give a `reference` to make it safe to repeat. */
  submitClaim(seed: ClaimSubmitSeed, options?: CallOptions): Promise<Answer<ClaimSubmitAnswerBody>> {
    return this.command<ClaimSubmitAnswerBody>(commands.submitClaim(), seed, options);
  }

  /** `claim status`: a claim with its documents and history. */
  claimStatus(claimNo: string, options?: CallOptions): Promise<Answer<ClaimDetail>> {
    return this.command<ClaimDetail>(commands.claimStatus(), { claimNo } satisfies Schemas["claim-status.seed"], options);
  }

  /** `claim list`: this partner's claims, newest first. */
  listClaims(seed: ClaimListSeed = {}, options?: CallOptions): Promise<Answer<Page<ClaimEntry>>> {
    return this.command<Page<ClaimEntry>>(commands.listClaims(), seed, options);
  }

  /** `claim withdraw`: withdraw a submitted or in-review claim. */
  withdrawClaim(claimNo: string, note?: string, options?: CallOptions): Promise<Answer<ClaimDetail>> {
    const seed: ClaimWithdrawSeed = note === undefined ? { claimNo } : { claimNo, note };
    return this.command<ClaimDetail>(commands.withdrawClaim(), seed, options);
  }

  /** `claim review` (administrator): move a claim to in_review, approved, rejected or paid. */
  reviewClaim(seed: ClaimReviewSeed, options?: CallOptions): Promise<Answer<ClaimReviewAnswerBody>> {
    return this.command<ClaimReviewAnswerBody>(commands.reviewClaim(), seed, options);
  }

  /** `claim respond`: answer the operator's request for information (note, documents as base64); the claim goes back into review. */
  respondToClaim(seed: ClaimRespondSeed, options?: CallOptions): Promise<Answer<ClaimDetail>> {
    return this.command<ClaimDetail>(commands.respondToClaim(), seed, options);
  }

  /** `claim assess` (administrator): assign the assessor, keep the reserve with a reason, tick the checklist. */
  assessClaim(seed: ClaimAssessSeed, options?: CallOptions): Promise<Answer<ClaimAssessAnswerBody>> {
    return this.command<ClaimAssessAnswerBody>(commands.assessClaim(), seed, options);
  }

  /** `claim payee`: the account to pay a claim into; the bank's name for it is compared with the insured's. Safe to repeat. */
  setClaimPayee(seed: ClaimPayeeSeed, options?: CallOptions): Promise<Answer<ClaimDetail>> {
    return this.command<ClaimDetail>(commands.setClaimPayee(), seed, options);
  }

  /** `claim voucher`: an approved claim's discharge voucher (the version in force, or `version`), with its PDF. */
  claimVoucher(seed: ClaimVoucherSeed, options?: CallOptions): Promise<Answer<ClaimVoucherAnswerBody>> {
    return this.command<ClaimVoucherAnswerBody>(commands.claimVoucher(), seed, options);
  }

  /** `claim accept`: record the claimant's acceptance of the voucher in force (its `version`); the payout follows. Safe to repeat. */
  acceptClaimVoucher(seed: ClaimAcceptSeed, options?: CallOptions): Promise<Answer<ClaimDetail>> {
    return this.command<ClaimDetail>(commands.acceptClaimVoucher(), seed, options);
  }

  /** `claim letter`: a rejected claim's letter, with its PDF. */
  claimLetter(seed: ClaimLetterSeed, options?: CallOptions): Promise<Answer<ClaimLetterAnswerBody>> {
    return this.command<ClaimLetterAnswerBody>(commands.claimLetter(), seed, options);
  }

  // --- complaints --------------------------------------------------------------------------------

  /** `complaint file`: a customer's complaint (no policy needed; a policy or claim named must be yours). Give a `reference` to make it safe to repeat. */
  fileComplaint(seed: ComplaintFileSeed, options?: CallOptions): Promise<Answer<ComplaintFileAnswerBody>> {
    return this.command<ComplaintFileAnswerBody>(commands.fileComplaint(), seed, options);
  }

  /** `complaint status`: a complaint with its deadlines, history and, once resolved, outcome, redress and letter link. */
  complaintStatus(complaintNo: string, options?: CallOptions): Promise<Answer<ComplaintDetail>> {
    return this.command<ComplaintDetail>(commands.complaintStatus(), { complaintNo } satisfies Schemas["complaint-status.seed"], options);
  }

  // --- the policyholder's own page ---------------------------------------------------------------

  /** `consumer link`: a signed link, valid a day, to the consumer's own page (their cover, certificates and claims, in your branding). */
  consumerLink(consumer: string, options?: CallOptions): Promise<Answer<ConsumerLinkAnswerBody>> {
    return this.command<ConsumerLinkAnswerBody>(commands.consumerLink(), { consumer } satisfies Schemas["consumer-link.seed"], options);
  }

  // --- premium financing -------------------------------------------------------------------------

  /** `payment financeLoan`: finance a policy's premium; the answer has the schedule. */
  financeLoan(seed: FinanceLoanSeed, options?: CallOptions): Promise<Answer<FinanceLoanAnswerBody>> {
    return this.command<FinanceLoanAnswerBody>(commands.financeLoan(), seed, options);
  }

  /** `payment recordInstallment`: record a payment once per `reference` (a repeat returns the first answer). */
  recordInstallment(seed: InstallmentSeed, options?: CallOptions): Promise<Answer<InstallmentAnswerBody>> {
    return this.command<InstallmentAnswerBody>(commands.recordInstallment(), seed, options);
  }

  /** `payment status`: a plan with its schedule and payments. */
  paymentStatus(planNo: string, options?: CallOptions): Promise<Answer<PlanStatusAnswerBody>> {
    return this.command<PlanStatusAnswerBody>(commands.paymentStatus(), { planNo } satisfies Schemas["payment-status.seed"], options);
  }

  /** `payment runLapse` (administrator): lapse the plans past their grace days. */
  runLapse(seed: RunLapseSeed = {}, options?: CallOptions): Promise<Answer<RunLapseAnswerBody>> {
    return this.command<RunLapseAnswerBody>(commands.runLapse(), seed, options);
  }

  // --- wallet ------------------------------------------------------------------------------------

  /** `wallet topup`: credit the prepaid wallet once per `reference` (a repeat returns the first answer). */
  topUpWallet(seed: TopUpSeed, options?: CallOptions): Promise<Answer<TopUpAnswerBody>> {
    return this.command<TopUpAnswerBody>(commands.topUpWallet(), seed, options);
  }

  /** `wallet statement`: the month's statement (YYYY-MM, Nigerian time; the current month when omitted). */
  walletStatement(month?: string, options?: CallOptions): Promise<Answer<WalletStatementAnswerBody>> {
    return this.command<WalletStatementAnswerBody>(commands.walletStatement(), (month ? { month } : {}) satisfies Schemas["wallet-statement.seed"], options);
  }

  // --- webhooks ----------------------------------------------------------------------------------

  /** `webhook register`: the answer carries the endpoint's `whsec_` secret, shown this once. */
  registerWebhook(seed: WebhookRegisterSeed, options?: CallOptions): Promise<Answer<WebhookRegisterAnswerBody>> {
    return this.command<WebhookRegisterAnswerBody>(commands.registerWebhook(), seed, options);
  }

  /** `webhook update`: URL, events, description, enabled, or `rotateSecret: true` (both secrets sign for 24 h). */
  updateWebhook(seed: WebhookUpdateSeed, options?: CallOptions): Promise<Answer<WebhookUpdateAnswerBody>> {
    return this.command<WebhookUpdateAnswerBody>(commands.updateWebhook(), seed, options);
  }

  /** `webhook delete`. */
  deleteWebhook(endpointId: string, options?: CallOptions): Promise<Answer<WebhookDeleteAnswerBody>> {
    return this.command<WebhookDeleteAnswerBody>(commands.deleteWebhook(), { endpointId } satisfies Schemas["webhook-delete.seed"], options);
  }

  /** `webhook list`: endpoints, without secrets. */
  listWebhooks(seed: ListSeed = {}, options?: CallOptions): Promise<Answer<Page<WebhookEndpoint>>> {
    return this.command<Page<WebhookEndpoint>>(commands.listWebhooks(), seed, options);
  }

  /** `webhook deliveries`: the delivery log with every attempt. */
  webhookDeliveries(seed: WebhookDeliveriesSeed = {}, options?: CallOptions): Promise<Answer<Page<WebhookDelivery>>> {
    return this.command<Page<WebhookDelivery>>(commands.webhookDeliveries(), seed, options);
  }

  /** `webhook replay`: deliver a delivery's event again (same `webhook-id`). */
  replayWebhook(deliveryId: string, options?: CallOptions): Promise<Answer<WebhookDelivery>> {
    return this.command<WebhookDelivery>(commands.replayWebhook(), { deliveryId } satisfies Schemas["webhook-replay.seed"], options);
  }

  /** `webhook test`: send a `webhook.test` event to one endpoint. */
  testWebhook(endpointId: string, options?: CallOptions): Promise<Answer<WebhookDelivery>> {
    return this.command<WebhookDelivery>(commands.testWebhook(), { endpointId } satisfies Schemas["webhook-test.seed"], options);
  }

  /** `webhook secret`: the default secret that signs `addtnlFact.webHook` deliveries; `{ rotate: true }` replaces it. */
  webhookSecret(seed: WebhookSecretSeed = {}, options?: CallOptions): Promise<Answer<WebhookSecretAnswerBody>> {
    return this.command<WebhookSecretAnswerBody>(commands.webhookSecret(), seed, options);
  }

  // --- helpers -----------------------------------------------------------------------------------

  /**
   * Poll a policy's status until it is decided — `a` approved, `d` declined or `l` lapsed — at the
   * spec's pace for its product family (jittered: see {@link pollIntervalFor}); the first check is
   * immediate. Returns the final status answer.
   */
  async waitForDecision(consumerId: string, productCode: ProductCode, txId: string, options: WaitOptions = {}): Promise<Answer<StatusAnswerBody>> {
    const { signal, onUpdate } = options;
    const interval = options.interval ?? pollIntervalFor(productCode);
    const maxErrors = options.maxConsecutiveErrors ?? 5;
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let last: Answer<StatusAnswerBody> | undefined;
    let errors = 0;
    for (;;) {
      try {
        last = await this.status(consumerId, productCode, txId, { signal });
        errors = 0;
        onUpdate?.(last);
        if (FINAL_STATUSES.includes(last.status)) return last;
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        const passing = error instanceof NetworkError || error instanceof AtCapacity || error instanceof RateLimited;
        if (!passing || ++errors > maxErrors) throw error;
      }
      const wait = jittered(interval);
      if (Date.now() + wait > deadline) throw new DecisionTimeout(commands.status(consumerId, productCode, txId), last, options.timeoutMs!);
      await sleep(wait, signal);
    }
  }

  /**
   * The certificate of an approved policy from its status (or insure) answer: decoded from
   * `crtfct`, or downloaded from `certUrl`. Live vehicle and device policies have a policy number
   * and no document: this throws for them.
   */
  async certificate(record: CertificateFields, options: CallOptions = {}): Promise<Certificate> {
    const type = record.crtfctType ?? "pdf";
    if (record.crtfct) {
      const binary = atob(record.crtfct);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return { bytes, type, source: "inline" };
    }
    if (!record.certUrl)
      throw new PartnerClientError("no certificate in this answer (live vehicle and device policies carry their policyNo only)", "certificate");
    try {
      const bytes = await this.withTimeout(
        options,
        async (signal) => {
          const response = await this.fetch(record.certUrl!, { signal });
          if (response.status !== 200) throw new PartnerClientError(`certificate download answered HTTP ${response.status}`, "certificate");
          return new Uint8Array(await response.arrayBuffer());
        },
        "certificate",
      );
      return { bytes, type, source: "hosted" };
    } catch (error) {
      if (options.signal?.aborted || error instanceof PartnerClientError) throw error;
      if (error instanceof RequestTimeoutSignal) throw new RequestTimeout("certificate", error.message, 1, true, error);
      throw new NetworkError("certificate", `download failed: ${(error as Error)?.message ?? String(error)}`, 1, true, error);
    }
  }

  /**
   * Any command string with any seed, through the same retry policy; the answer of a success, or
   * a thrown {@link CommandRefused} / {@link AtCapacity} / {@link NetworkError}.
   */
  async command<T = Record<string, unknown>>(cmmnd: string, seed?: unknown, options: CallOptions = {}): Promise<Answer<T>> {
    const { partnerId, keyId, key } = this.options;
    // One body for every attempt: a retry is the same request (spec 3: "the same transaction reference is retried").
    const body = JSON.stringify({ userInfo: { id: partnerId, athrzt: { id: keyId, key } }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } });
    const retry = this.options.retry ?? {};
    const capacityDelays = retry.capacityDelaysMs ?? DEFAULTS.capacityDelaysMs;
    const networkDelays = retry.networkDelaysMs ?? DEFAULTS.networkDelaysMs;
    const rateLimitRetries = retry.rateLimitRetries ?? DEFAULTS.rateLimitRetries;
    const safe = isSafeToRepeat(cmmnd, seed);
    const timeoutMs =
      options.timeoutMs ??
      (isRegistryCommand(cmmnd) ? (this.options.registryTimeoutMs ?? DEFAULTS.registryTimeoutMs) : (this.options.timeoutMs ?? DEFAULTS.timeoutMs));
    let attempts = 0;
    let capacityRetries = 0;
    let rateRetries = 0;
    let networkRetries = 0;

    const pause = async (event: Omit<RetryEvent, "command" | "attempt">) => {
      this.options.onRetry?.({ command: cmmnd, attempt: attempts, ...event });
      await sleep(event.delayMs, options.signal);
    };

    for (;;) {
      attempts++;
      const outcome = await this.exchange(body, timeoutMs, options.signal);
      if (outcome instanceof TransportFailure) {
        if (safe && networkRetries < networkDelays.length) {
          await pause({ reason: "network", delayMs: networkDelays[networkRetries++]!, error: outcome.cause ?? outcome.message });
          continue;
        }
        if (outcome.kind === "timeout") throw new RequestTimeout(cmmnd, outcome.message, attempts, safe, outcome.cause);
        if (outcome.kind === "unexpected") throw new UnexpectedAnswer(cmmnd, outcome.message, attempts, safe, outcome.httpStatus, outcome.body);
        throw new NetworkError(cmmnd, outcome.message, attempts, safe, outcome.cause);
      }
      const answer = outcome;
      const { id, id_v4 } = answer.exctnFdbck;
      if (id === 75) return answer as Answer<T>;
      if (id === 35) {
        if (capacityRetries < capacityDelays.length) {
          await pause({ reason: "capacity", delayMs: capacityDelays[capacityRetries++]!, answer });
          continue;
        }
        throw new AtCapacity(cmmnd, answer, attempts);
      }
      if (id_v4 === 429) {
        const asked = (answer as { retryAfter?: unknown }).retryAfter;
        const fallback = retry.rateLimitFallback ?? DEFAULTS.rateLimitFallback;
        const delayMs = typeof asked === "number" && asked > 0 ? asked * 1000 : jittered(fallback);
        if (rateRetries < rateLimitRetries && delayMs <= (retry.maxRateLimitWaitMs ?? DEFAULTS.maxRateLimitWaitMs)) {
          rateRetries++;
          await pause({ reason: "rate-limit", delayMs, answer });
          continue;
        }
        throw new RateLimited(cmmnd, answer, attempts);
      }
      // A repeated insure whose first attempt was stored after all: read the policy instead of failing.
      if (networkRetries > 0 && id_v4 === 409 && /seed\.id is already in use/.test(answer.exctnFdbck.elbrtn ?? "")) {
        const recovered = await this.recoverInsure(cmmnd, seed, options);
        if (recovered) return recovered as unknown as Answer<T>;
      }
      throw new CommandRefused(cmmnd, answer);
    }
  }

  /** After a network error, `insure`'s repeat found its reference taken: the status of that policy, as an insure answer. */
  private async recoverInsure(cmmnd: string, seed: unknown, options: CallOptions): Promise<Answer<InsureAnswerBody> | null> {
    const consumerId = INSURE.exec(cmmnd)?.[1];
    const s = seed as Partial<InsureSeed> | undefined;
    if (!consumerId || !s?.id || !s.ctgry || !s.type || !s.pckg) return null;
    const reference = storedReference(s.id);
    try {
      const { tmstmp: _tmstmp, ...status } = await this.status(consumerId, `${s.ctgry}-${s.type}-${s.pckg}`, reference, options);
      return { id: reference, ...status };
    } catch (error) {
      if (error instanceof CommandRefused) return null;
      throw error;
    }
  }

  /** One POST: the parsed answer, or why there is none. Aborting `signal` rejects with its reason. */
  private async exchange(body: string, timeoutMs: number, signal?: AbortSignal): Promise<Answer | TransportFailure> {
    let response: Response;
    let text: string;
    try {
      [response, text] = await this.withTimeout({ signal, timeoutMs }, async (combined) => {
        const r = await this.fetch(this.options.baseUrl, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body,
          signal: combined,
        });
        return [r, await r.text()] as const;
      });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof RequestTimeoutSignal) return new TransportFailure("timeout", `no answer within ${timeoutMs} ms`, error);
      return new TransportFailure("network", `request failed: ${(error as Error)?.message ?? String(error)}`, error);
    }
    if (response.status !== 200)
      return new TransportFailure(
        "unexpected",
        `HTTP ${response.status} instead of the service's 200 (a proxy or gateway answered?)`,
        undefined,
        response.status,
        text.slice(0, 2000),
      );
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      return new TransportFailure("unexpected", "the answer is not JSON", undefined, response.status, text.slice(0, 2000));
    }
    const feedback = (answer as { exctnFdbck?: { id?: unknown } } | null)?.exctnFdbck;
    if (!feedback || typeof feedback.id !== "number")
      return new TransportFailure("unexpected", "the answer has no exctnFdbck", undefined, response.status, text.slice(0, 2000));
    return answer as Answer;
  }

  /** Run `work` with a signal that aborts on the caller's signal or after the timeout (RequestTimeoutSignal). */
  private async withTimeout<R>(options: CallOptions, work: (signal: AbortSignal) => Promise<R>, label = "request"): Promise<R> {
    const { signal } = options;
    if (signal?.aborted) throw abortReason(signal);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULTS.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new RequestTimeoutSignal(`${label}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => controller.abort(abortReason(signal!));
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await work(controller.signal);
    } catch (error) {
      // Some fetch implementations reject with a generic AbortError rather than the reason.
      if (controller.signal.aborted && controller.signal.reason instanceof RequestTimeoutSignal) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

/** The reason a request's own timeout aborts it with (told apart from the caller's abort). */
class RequestTimeoutSignal extends Error {
  override name = "TimeoutError";
}

/** Every entry of a paginated list, page after page: `for await (const t of paginate((s) => client.listTransactions(s), { status: "a" }))`. */
export async function* paginate<T, S extends ListSeed>(list: (seed: S) => Promise<Page<T>>, seed: S = {} as S): AsyncGenerator<T> {
  let cursor: string | undefined = seed.cursor;
  do {
    const page: Page<T> = await list({ ...seed, ...(cursor ? { cursor } : {}) });
    yield* page.list;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
