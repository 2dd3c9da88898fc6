import type { PendingRow } from "../../../views/admin/admin";
import { coverPeriod, naira, POLICY_STATUS_TEXT, waitingFor } from "../../../views/format";
import type { PolicyRow, PolicyView } from "../../../views/policies/policies";
import type { Config } from "../../core/config";
import type { CsvValue } from "../../core/csv";
import { CommandError } from "../../core/errors";
import { toNaira } from "../../core/money";
import { coverDays, watTimestamp } from "../../core/time";
import type { Database } from "../../db/client";
import type { ListSource } from "../../portal/list";
import { fieldLabel, inWords } from "../../portal/words";
import { allProductCodes, findProduct, productName, sumInsuredKobo } from "../../products";
import { certificateFor, certificateUrl, verificationUrl } from "../certificates";
import { consumerDocumentList, consumerName, consumerNamesOf, findConsumer, profileLines, wireConsumerId } from "../consumers";
import type { VehicleRegistry } from "../enrichment";
import { registryAnswer, type VinDecoder, validVin } from "../enrichment";
import { planNoOfPolicy } from "../financing";
import type { ServiceFacts } from "../manifest";
import type { PolicyRecord } from "../policies";
import {
  countPolicies,
  hasCertificate,
  insuredName,
  latestQuote,
  listPolicies,
  type PolicyFilters,
  policyContext,
  policyFilters,
  policyFilterValues,
  policyName,
  storedTerms,
} from "../policies";

export const productOptions = () => allProductCodes().map((code) => ({ value: code, label: productName(code) }));

/** What every list of policies shows of one: number and reference, product, the insured's name (cached lookup), status, premium. */
export async function policyLine(db: Database, p: PolicyRecord) {
  return {
    reference: p.reference,
    policyNo: p.policyNo,
    productName: productName(p.productCode),
    consumerName: await insuredName(db, p),
    status: p.status,
    premiumKobo: p.premiumKobo,
  };
}

/** List rows with the consumer's name (cached lookups), linking to `href(policy)`; with `partnerNames`, each names its partner (admin). */
export async function policyRows(
  db: Database,
  policies: PolicyRecord[],
  href: (p: PolicyRecord) => string,
  partnerNames?: Map<string, string>,
): Promise<PolicyRow[]> {
  return Promise.all(
    policies.map(async (p) => {
      return {
        ...(await policyLine(db, p)),
        mode: p.mode,
        createdAt: p.createdAt,
        href: href(p),
        ...(partnerNames ? { partnerName: partnerNames.get(p.partnerId) } : {}),
      };
    }),
  );
}

/** What approving takes on, for the queue's quick approve and the desk's confirmation: the premium and, where the product has one, the sum insured. */
function approvalAmounts(policy: PolicyRecord): string {
  const sumInsured = sumInsuredKobo(policy);
  return `Premium ${naira(policy.premiumKobo)}${sumInsured === null ? ", no sum insured" : `, sum insured ${naira(sumInsured)}`}`;
}

/** A row of the operator's approvals queue. */
export async function pendingRow(db: Database, policy: PolicyRecord, partnerNames: Map<string, string>, href: string): Promise<PendingRow> {
  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  return {
    id: policy.id,
    reference: policy.reference,
    partnerName: partnerNames.get(policy.partnerId) ?? "",
    consumerName: consumer ? consumerName(consumer.profile) : "—",
    productName: productName(policy.productCode),
    premiumKobo: policy.premiumKobo,
    sumInsuredKobo: sumInsuredKobo(policy),
    amounts: approvalAmounts(policy),
    createdAt: policy.createdAt,
    href,
    waiting: waitingFor(policy.createdAt, new Date()),
  };
}

/** What a pending policy insures, in words, first on the review desk: the sum insured, the premium, the cover, then the policy's own lines (goods value, voyage, vehicle…). */
function riskLines(policy: PolicyRecord): [label: string, value: string][] {
  const sumInsured = sumInsuredKobo(policy);
  return [
    ...(sumInsured === null ? [] : [["Sum insured", naira(sumInsured)] as [string, string]]),
    ["Premium", naira(policy.premiumKobo)],
    ["Cover", coverPeriod(policy.coverStart, policy.coverEnd)],
    ...policy.printed,
  ];
}

/**
 * The review desk of a pending policy: the risk, the consumer as the partner registered them, their
 * documents, a vehicle's checks, and the next policy waiting.
 */
export async function reviewDeskView(
  db: Database,
  policy: PolicyRecord,
  base: string,
  partnerName: string,
  consumerHref: string,
  nextHref: string | undefined,
) {
  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  const documents = consumer ? await consumerDocumentList(db, consumer.id) : [];
  return {
    policyId: policy.id,
    reference: policy.reference,
    partnerName,
    createdAt: policy.createdAt,
    productName: productName(policy.productCode),
    amounts: approvalAmounts(policy),
    risk: riskLines(policy),
    consumerName: consumer ? consumerName(consumer.profile) : "—",
    consumerHref,
    consumerLines: consumer ? profileLines(consumer.profile) : [],
    documents: documents.map((d) => ({
      label: fieldLabel(d.field),
      href: `/admin/consumers/${policy.consumerId}/documents/${d.field}`,
      image: d.mime.startsWith("image/"),
    })),
    // Products that insure a registered vehicle have registry and VIN checks (vehicleChecksView).
    registryHref: findProduct(policy.productCode).family.policy.registeredVehicle ? `${base}/registry` : undefined,
    nextHref,
  };
}

type Verdict = { tone: "ok" | "bad" | "wait"; text: string };

/**
 * The checks of a pending vehicle policy, for the review desk: what the vehicle registry shows,
 * judged as underwriting would judge it (the same cached answer, never billed to the partner, and
 * the product's own "vehicle details not matching national records" rule), and what the chassis
 * number decodes to as a VIN. Null for other products.
 */
export async function vehicleChecksView(
  db: Database,
  registry: VehicleRegistry | null,
  vins: VinDecoder,
  policy: PolicyRecord,
  now: Date,
): Promise<Verdict[] | null> {
  const product = findProduct(policy.productCode);
  const terms = storedTerms(policy);
  const vehicle = product.family.policy.registeredVehicle?.(product.type, terms);
  if (!vehicle) return null;
  return [await registryVerdict(), await vinVerdict()];

  async function registryVerdict(): Promise<Verdict> {
    try {
      const { answer } = await registryAnswer(db, registry, "registration", vehicle!.registration, now);
      if (answer.status !== "found")
        return { tone: "wait", text: `The registry has no vehicle with plate ${vehicle!.registration} (a new registration may not be listed yet).` };
      const consumer = (await findConsumer(db, policy.partnerId, policy.consumerId))!;
      const context = policyContext(consumer, await latestQuote(db, policy.partnerId, policy.productCode), now);
      const mismatch = product.family.policy.declineReason(product.type, terms, context, { deviceAlreadyInsured: false, vehicleRecord: answer });
      const listed = `${answer.details.vehicle_make ?? ""} ${answer.details.vehicle_model ?? ""}`.trim();
      return mismatch
        ? { tone: "bad", text: mismatch }
        : { tone: "ok", text: `The registry lists plate ${vehicle!.registration} as ${listed || "this vehicle"}: it matches the policy.` };
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      return { tone: "wait", text: `The registry could not answer (${inWords(error.message)}). Reload the page to try again.` };
    }
  }

  async function vinVerdict(): Promise<Verdict> {
    let vin: string;
    try {
      vin = validVin(vehicle!.chassis, "chassis");
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      // Older vehicles carry chassis numbers that are no VIN; a VIN with a wrong check digit is worth a look.
      const why = error.message.replace(/^chassis /, "it ");
      return { tone: "wait", text: `The chassis number ${vehicle!.chassis} cannot be decoded as a VIN: ${why}.` };
    }
    const decoded = await vins.decode(vin);
    if (!decoded.make) return { tone: "wait", text: `The VIN ${vin} is valid but the catalogue does not know it.` };
    const described = [decoded.make, decoded.model, decoded.year].filter(Boolean).join(" ");
    const sameMake = decoded.make.toLowerCase().split(/\W+/)[0] === vehicle!.make.toLowerCase().split(/\W+/)[0];
    return sameMake
      ? { tone: "ok", text: `The VIN decodes to ${described}: the make matches the policy.` }
      : { tone: "bad", text: `The VIN decodes to ${described}, not ${vehicle!.make} as the policy states.` };
  }
}

/** What the approvals queue says once a decision is made. */
export const reviewDone = (decided: PolicyRecord) =>
  decided.status === "a" ? `Approved ${decided.reference}: policy number ${decided.policyNo}.` : `Declined ${decided.reference}: ${decided.statusNote}.`;

/** What the lifecycle module adds to a policy's page (the service facts hand it over: the lifecycle sits above issuance). */
export type PolicyLifecycle = ServiceFacts["policyLifecycle"];

/** Everything a policy page shows, with links for this viewer (`base` is the page's own path). */
export async function policyView(
  db: Database,
  config: Config,
  lifecycle: PolicyLifecycle,
  policy: PolicyRecord,
  base: string,
  consumerHref: string,
): Promise<PolicyView> {
  const [insured, changes] = await Promise.all([insuredName(db, policy), lifecycle(db, policy, base, new Date())]);
  const product = findProduct(policy.productCode);
  const hosted = hasCertificate(policy) && (policy.mode === "test" || product.family.policy.certificate(product.type).delivery === "hosted");
  return {
    title: policyName(policy, insured),
    reference: policy.reference,
    productName: productName(policy.productCode),
    productCode: policy.productCode,
    consumerName: insured,
    consumerHref,
    status: policy.status,
    statusNote: policy.statusNote,
    policyNo: policy.policyNo,
    premiumKobo: policy.premiumKobo,
    mode: policy.mode,
    coverStart: policy.coverStart,
    coverEnd: policy.coverEnd,
    createdAt: policy.createdAt,
    statusAt: policy.statusAt,
    printed: policy.printed,
    certificateHref: hasCertificate(policy) ? `${base}/certificate` : null,
    hostedHref: hosted ? certificateUrl(config, policy) : null,
    verifyHref: policy.policyNo ? verificationUrl(config, policy.policyNo) : null,
    statusHref: `${base}/status`,
    pendingText: PENDING_TEXT[policy.route],
    ...changes,
  };
}

/** What a pending policy waits for, as its partner reads it. */
const PENDING_TEXT: Record<PolicyRecord["route"], string> = {
  manual: "Waiting for the insurer's review: an underwriter decides within one working day.",
  insurer: "Waiting for the insurer's decision, usually within a few minutes.",
  approve: "Being approved.",
};

/** A partner's policy page: its detail, with the claim and finance actions this policy allows. */
export async function partnerPolicyView(db: Database, config: Config, lifecycle: PolicyLifecycle, policy: PolicyRecord, base: string): Promise<PolicyView> {
  const view = await policyView(db, config, lifecycle, policy, base, `/portal/consumers/${wireConsumerId(policy.consumerId)}`);
  const query = `?policy=${encodeURIComponent(policy.reference)}`;
  // One plan per policy, ever: only an approved or pending policy with a premium and no plan yet can be financed.
  const financeable = (policy.status === "a" || policy.status === "p") && policy.premiumKobo > 0 && !(await planNoOfPolicy(db, policy.id));
  view.claimHref = policy.status === "a" ? `/portal/claims/new${query}` : undefined;
  view.financeHref = financeable ? `/portal/financing/new${query}` : undefined;
  return view;
}

/**
 * The policies of `scope` (its page at `path`) the query's filters select, counted; a refused filter
 * (a date, a page, a text too long to find) gives no rows and its refusal beside its input. Without a
 * partner's scope it is the operator's list, with the operator's filters (partner, mode).
 */
export const policyList = (
  db: Database,
  scope: { partnerId?: string },
  path: string,
  rows: (items: PolicyRecord[]) => Promise<PolicyRow[]>,
): ListSource<Record<string, string>, PolicyFilters, PolicyRecord, PolicyRow> => ({
  path,
  values: (query) => policyFilterValues(query, !scope.partnerId),
  filters: (query) => policyListFilters(scope, query),
  fetch: (filters, paging) => listPolicies(db, scope, filters, paging),
  count: (filters) => countPolicies(db, scope, filters),
  rows,
});

/** The filters of a policies list of `scope` (its page, its CSV) as the query gives them: the operator's list has its own (partner, mode). */
export const policyListFilters = (scope: { partnerId?: string }, query: Record<string, string | undefined>) =>
  policyFilters(policyFilterValues(query, !scope.partnerId), !scope.partnerId);

/** The certificate of an approved policy as a download. */
export async function certificateDownload(db: Database, config: Config, policy: PolicyRecord, set: { headers: Record<string, unknown>; status?: unknown }) {
  if (!hasCertificate(policy)) throw new CommandError(404, "this policy has no certificate: it was never approved");
  const document = await certificateFor(db, config, policy);
  set.headers["content-type"] = document.mime;
  set.headers["content-disposition"] = `attachment; filename="${policy.policyNo}.${document.type}"`;
  return new Response(Buffer.from(document.content));
}

/** The columns of a policies CSV (the operator's adds the partner first). */
export const POLICY_CSV_COLUMNS = [
  "Reference",
  "Policy number",
  "Product",
  "Product code",
  "Insured",
  "Consumer id",
  "Status",
  "Status note",
  "Premium (NGN)",
  "Mode",
  "First day of cover",
  "Last day of cover",
  "Requested (WAT)",
] as const;

/** A page of policies as CSV rows: the insured's names in one query for the page. */
export async function policyCsvRows(db: Database, items: PolicyRecord[], partners?: Map<string, string>): Promise<CsvValue[][]> {
  const names = await consumerNamesOf(
    db,
    items.map((p) => p.consumerId),
  );
  return items.map((p) => {
    const cover = coverDays(p.coverStart, p.coverEnd);
    return [
      ...(partners ? [partners.get(p.partnerId)] : []),
      p.reference,
      p.policyNo,
      productName(p.productCode),
      p.productCode,
      names.get(p.consumerId),
      wireConsumerId(p.consumerId),
      POLICY_STATUS_TEXT[p.status],
      p.statusNote,
      toNaira(p.premiumKobo),
      p.mode,
      cover.firstDay,
      cover.lastDay,
      watTimestamp(p.createdAt),
    ];
  });
}
