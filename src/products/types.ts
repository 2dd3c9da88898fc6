import type { CancellationRule } from "./cancellation";
/**
 * The contract every product family module fulfils. Adding a product touches one folder:
 * src/products/<family>/ exports a ProductFamily and src/products/index.ts lists it.
 */

import type { z } from "zod";

/** How `prmm` is expressed on the wire: whole naira, or kobo (credit life). */
export type PremiumUnit = "naira" | "kobo";

export type ConsumerClass = "h" | "o";

export interface Quote {
  /** Premium in integer kobo (money is kobo everywhere inside the service). */
  premiumKobo: number;
  /** Cover duration the premium is for (wire code such as "1y"), when the product has one. */
  duration?: string;
  /** The normalised seed the premium was computed from; stored with the quote so issuance can compare. */
  basis: Record<string, unknown>;
}

/** An underwriting insurer: its short code (four lowercase letters) and its name. */
export interface Insurer {
  code: string;
  name: string;
}

export interface ProductType {
  /** Wire type code, e.g. "tprt". */
  code: string;
  /** Human name, e.g. "Vehicle, third-party". */
  name: string;
  deprecated?: boolean;
}

export interface ProductFamily {
  /** Wire category, e.g. "vhcl". */
  ctgry: string;
  name: string;
  types: readonly ProductType[];
  premiumUnit: PremiumUnit;
  /**
   * Validate a raw quote seed (unknown JSON) and price it for `type`.
   * Throws CommandError with the spec's wording (400 unless the spec names another status).
   */
  quote(type: string, seed: unknown): Quote;
  /**
   * Consumer fields (dotted wire paths such as "name.first", "dob.date", "socialID.image")
   * that must be present on the stored consumer before a policy of `type` can be issued
   * for a consumer of this class. Spec section 2.3.
   */
  consumerRequirements(type: string, consumerClass: ConsumerClass): readonly string[];
  /** Issuance rules of the family (spec 2.5, 3, 7). */
  policy: PolicyRules;
  /** What a cancelled policy's premium gives back (src/products/cancellation.ts, docs/lifecycle.md). */
  cancellation: CancellationRule;
  /** The most a claim on one of its policies may ask for, and the excess an approval keeps back (docs/claims.md). */
  claims: ClaimRule;
  /** The insurer that underwrites `type` and is owed its premium (the bordereaux, docs/reporting.md). */
  insurer(type: string): Insurer;
  /** The mid-term changes (endorsements) an insured may ask for; absent: none (cancel and issue anew). */
  endorsement?: EndorsementRule;
  /** The portal's forms for quoting and issuing `type` (the same fields as the wire seeds). */
  forms(type: string): ProductForms;
  /** The zod schemas `quote` and `policy.terms` validate `type`'s seeds with: the command reference shows them (src/reference). */
  schemas(type: string): ProductSchemas;
}

/** What a claim rule reads of the policy claimed on. */
export interface ClaimedPolicy {
  /** The full product code, e.g. "phnn-flx1-1111". */
  productCode: string;
  /** The facts stored with the policy (its validated addtnlFact and insrncDrtn). */
  facts: Readonly<Record<string, unknown>>;
}

/** The most a claim may ask for, in integer kobo, and what that figure is. */
export interface ClaimCeiling {
  kobo: number;
  /** What the ceiling is, for the refusal: "the declared value of the goods (goodsValue)". */
  basis: string;
}

/** A document an assessor needs to see before deciding a claim, e.g. a police report for a theft. */
export interface ClaimDocumentNeed {
  /** Stable within the family: the checklist ticks it by this key. */
  key: string;
  /** What it is, in words: "A police report". */
  label: string;
}

/** A family's claim limits (src/products/claims.ts has the ones families share). `T`: how the family names a type. */
export interface ClaimRule<T = string> {
  /** The most a claim on a policy of `type` may ask for: its sum insured where the product has one. */
  ceiling(type: T, policy: ClaimedPolicy): ClaimCeiling;
  /** Kept back from each approved claim, in percent of the approved amount; absent: no excess. */
  excessPercent?: number;
  /** The documents a claim on a policy of `type` needs (docs/claims.md, "Assessment"). */
  documents(type: T): readonly ClaimDocumentNeed[];
}

/**
 * Which facts of a policy may change while it runs (docs/lifecycle.md, "Endorsements"). A change is
 * validated and priced by the family's own `policy.terms`, as at issuance.
 */
export interface EndorsementRule {
  /** The addtnlFact fields that may change for `type`. */
  fields(type: string): readonly string[];
  /** Fields whose change moves the cover period (the new terms' cover is taken); otherwise the cover stays as it is. */
  coverFields?: readonly string[];
  /** Changes are accepted only before the cover starts (travel: before departure). */
  beforeCoverStarts?: boolean;
  /** Whether a live change goes to an administrator; absent: when the policy itself was reviewed (its route is manual). */
  reviewed?(type: string, changed: readonly string[]): boolean;
}

/**
 * A product's wire seeds as zod schemas, the very ones its rules parse with. Where a rule words a
 * refusal itself (spec 7) the family tightens its schema with the same constants for the
 * reference (travel's destination and durations), so the documentation says what the rule enforces.
 */
export interface ProductSchemas {
  /** Seed of `dump ipck_<code>*PRMM`. */
  quote: z.ZodType;
  /** insrncDrtn of the insure seed; absent when the product takes none (it must then be omitted). */
  insrncDrtn?: z.ZodType;
  /** addtnlFact of the insure seed, besides webHook (which every product takes). */
  addtnlFact: z.ZodObject;
}

// ─── Portal forms (src/products/forms.ts turns submitted values into wire seeds) ──────────────

type FieldKind = "text" | "textarea" | "number" | "integer" | "phone" | "plate" | "date" | "datetime" | "select" | "checkbox" | "document";

/** One input of a product form. */
export interface FormField {
  kind: FieldKind;
  /** Wire path inside the seed, e.g. "insrncDrtn", "addtnlFact.goodsValue", "addtnlFact.isHajj". */
  path: string;
  label: string;
  required?: boolean;
  /** select: the wire values and what people read. */
  options?: readonly { value: string; label: string }[];
  /** Shown under the input: the rule, a unit, an example. */
  hint?: string;
  /** Shown (and sent) only when another field of the same form holds this value. */
  showWhen?: { path: string; equals: string };
  /** number: people type naira, the wire takes kobo (credit life's loan amount, spec 2.4). */
  wireUnit?: "kobo";
}

/** A repeatable group (marine items, family passengers): sent as an array of objects at `path`. */
export interface FormGroup {
  kind: "group";
  path: string;
  label: string;
  /** Label of one entry, e.g. "Item", "Passenger". */
  itemLabel: string;
  /** Field paths are relative to one entry, e.g. "description". */
  fields: readonly FormField[];
  min: number;
  max: number;
  showWhen?: { path: string; equals: string };
}

export type FormEntry = FormField | FormGroup;

export interface ProductForms {
  /** `dump ipck_<code>*PRMM` seed fields. */
  quote: readonly FormEntry[];
  /** `entt_<consumer>: insure` fields besides ctgry/type/pckg/id (insrncDrtn and addtnlFact.*). */
  policy: readonly FormEntry[];
  /**
   * When the wire shape is not field-per-input (e.g. a voyage array built from an origin and a
   * destination input): turn the generic seed into the wire seed.
   */
  policySeed?(seed: Record<string, unknown>): Record<string, unknown>;
}

// ─── Policies (spec 2.5, 3, 7 decline reasons) ──────────────────────────────────────────────

/** What the product rules may read about the consumer being insured (the stored 2.3 profile). */
export interface InsuredConsumer {
  class: ConsumerClass;
  /** Wire-shaped profile: name.first, dob.date, addrss.addrss, socialID.type … (documents excluded). */
  profile: Record<string, unknown>;
  /** Wire paths of the documents on file, e.g. "socialID.image", "cac02". */
  documents: readonly string[];
}

/** The partner's latest stored quote of this product code, for rules that compare against it. */
export interface QuoteOnFile {
  premiumKobo: number;
  duration?: string;
  basis: Record<string, unknown>;
  createdAt: Date;
}

export interface PolicyContext {
  consumer: InsuredConsumer;
  latestQuote?: QuoteOnFile;
  now: Date;
}

/** The product part of `entt_<consumer_id>: insure` (already checked for blank/null fields). */
interface PolicyRequest {
  insrncDrtn?: unknown;
  /** Raw addtnlFact without webHook (the service handles webHook). */
  addtnlFact?: unknown;
}

/**
 * How a live-mode issuance proceeds (spec 3): `insurer` — pending until the insurer gateway
 * underwrites it; `approve` — approved at once (marine export, comprehensive vehicle with proof
 * of ownership); `manual` — pending until an administrator approves or declines it.
 */
export type LiveRoute = "insurer" | "approve" | "manual";

export interface PolicyTerms {
  /** Premium charged, integer kobo, computed with the same rule as the quote. */
  premiumKobo: number;
  duration?: string;
  coverStart: Date;
  coverEnd: Date;
  /** The validated, normalised addtnlFact (and insrncDrtn) as stored with the policy. */
  facts: Record<string, unknown>;
  /** IMEI or serial number: a device holds one active policy at a time. */
  deviceId?: string;
  liveRoute: LiveRoute;
  /** Product-specific lines printed on the certificate (goodsValue, proformaInvoice …). */
  printed: readonly (readonly [label: string, value: string])[];
}

/** Facts only the underwriting step knows, gathered by the service before asking the rules. */
export interface UnderwritingFacts {
  /** Another approved, unexpired policy covers the same device (IMEI/serial). */
  deviceAlreadyInsured: boolean;
  /** What the national vehicle registry shows for the insured plate (when the product names one and a registry is configured). */
  vehicleRecord?: { status: "found" | "not_found"; details: Record<string, string> };
}

/** The insured vehicle as the national registry should show it (spec 4.4). */
interface RegisteredVehicle {
  registration: string;
  make: string;
  model: string;
  chassis: string;
  cover: "Third Party" | "Comprehensive";
}

/**
 * Certificate form (spec 2.6): the document type, and how the status answer delivers it:
 * `inline` — crtfct (base64) + crtfctType; `hosted` — a link (certUrl, travel);
 * `policyNo` — the policy number only (vehicle, device). Test mode always adds certUrl.
 */
export interface CertificateForm {
  type: "pdf" | "docx" | "jpg";
  delivery: "inline" | "hosted" | "policyNo";
}

export interface PolicyRules {
  /** The rules read `context.latestQuote` (travel, loan guaranty); other products skip that lookup. */
  comparesWithQuote?: boolean;
  /**
   * Validate the request for `type` against the spec's addtnlFact table and the consumer, and
   * work out the terms. Throws CommandError naming the field (`seed.addtnlFact.voyage[1]` …):
   * 400 for invalid input (406 is raised by the service for blank/null values).
   */
  terms(type: string, request: PolicyRequest, context: PolicyContext): PolicyTerms;
  /** The simulated insurer's decision (spec 7 decline reasons); null approves. */
  declineReason(type: string, terms: PolicyTerms, context: PolicyContext, facts: UnderwritingFacts): string | null;
  certificate(type: string): CertificateForm;
  /**
   * Facts stored as a summary of a document sent (its kind and size), never the document, so they
   * cannot go through `terms` again: a change keeps them as stored, a renewal leaves them out and is
   * decided as a request without the document (docs/lifecycle.md).
   */
  documentFacts?: readonly string[];
  /**
   * Vehicle products: the vehicle a policy insures, as the registry should show it. The insurer
   * checks the plate against the registry before approving; approved policies are published to it.
   */
  registeredVehicle?(type: string, terms: PolicyTerms): RegisteredVehicle;
}
